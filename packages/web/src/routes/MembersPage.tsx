// The client's members: list with roles, invite dialog, pending invitations, role change, remove (confirmed) and leave.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, TextField, Typography } from '@mui/material';
import { checkEmail, ROLES, TEAM_MESSAGES, type Invite, type Member, type Role } from '@portal/core';
import { useMembers } from '@portal/core/react';
import { ClientNotFound } from '../components/NotFound';
import { Page } from '../components/Page';
import { EntityTable, fromLoad } from '../components/EntityTable';
import { ConfirmDialog, DialogField, FormDialog, useFormDialog } from '../components/Dialogs';
import { useCrumbNames } from '../layout/ChromeContext';
import { Time } from '../components/Time';

const roleLabel = (r: Role) => (r === 'owner' ? 'Owner' : 'Member');

function InviteDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose(): void;
  onSubmit(email: string, role: Role): Promise<string | null>;
}) {
  const form = useFormDialog(open, onClose, { email: '', role: 'member' as Role, error: null as string | null });
  const { email, role, error } = form.fields;
  const submit = async () => {
    const err = checkEmail(email);
    form.set({ error: err });
    if (!err)
      await form.send(
        () => onSubmit(email.trim(), role),
        (m) => form.set({ error: m }),
      );
  };
  return (
    <FormDialog titleId="invite-dialog-title" title="Invite a member" submitLabel="Send invitation" form={form} onSubmit={submit}>
      <DialogField
        form={form}
        name="email"
        label="Email"
        type="email"
        problem={error}
        hint="They get a link that works once, for 7 days."
        autoFocus
      />
      <DialogField form={form} name="role" label="Role" select slotProps={{ select: { native: true } }}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {roleLabel(r)}
          </option>
        ))}
      </DialogField>
    </FormDialog>
  );
}

export default function MembersPage() {
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  const team = useMembers(clientId);
  const data = team.data;
  useCrumbNames({ client: data?.client.name });
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [leaving, setLeaving] = useState(false);
  if (team.missing) return <ClientNotFound />;
  return (
    <Page
      title="Members"
      actions={
        <>
          {team.canManage && (
            <Button variant="contained" onClick={() => setInviting(true)}>
              Invite
            </Button>
          )}
          {data && (
            <Button
              color="error"
              variant="outlined"
              onClick={() => setLeaving(true)}
              disabled={!!team.leaveBlocked}
              title={team.leaveBlocked ?? ''}
            >
              Leave
            </Button>
          )}
        </>
      }
    >
      {team.leaveBlocked && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {team.leaveBlocked}
        </Typography>
      )}
      <EntityTable<Member>
        label="Members"
        rows={data?.members}
        {...fromLoad(team)}
        rowKey={(m) => m.user.stamp}
        empty={TEAM_MESSAGES.noMembers}
        columns={[
          { id: 'email', label: 'Email', value: (m) => m.user.email },
          { id: 'username', label: 'Username', value: (m) => m.user.username, truncate: true },
          {
            id: 'role',
            label: 'Role',
            // The role box keeps its word readable however long the emails beside it.
            minWidth: 136,
            value: (m) => m.role,
            render: (m) =>
              team.canManage ? (
                <TextField
                  select
                  size="small"
                  value={m.role}
                  sx={{ minWidth: 120 }}
                  slotProps={{ select: { native: true }, htmlInput: { 'aria-label': `Role of ${m.user.email}` } }}
                  onChange={(e) => void team.setRole(m.user.stamp, e.target.value as Role)}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r} disabled={r !== m.role && !!team.roleBlocked(m.user.stamp, r)}>
                      {roleLabel(r)}
                    </option>
                  ))}
                </TextField>
              ) : (
                roleLabel(m.role)
              ),
          },
          { id: 'createdAt', label: 'Member since', nowrap: true, value: (m) => m.createdAt, render: (m) => <Time at={m.createdAt} /> },
        ]}
        actions={(m) =>
          team.canManage && m.user.stamp !== data?.me ? (
            <Button size="small" color="error" onClick={() => setRemoving(m)} aria-label={`Remove ${m.user.email}`}>
              Remove
            </Button>
          ) : null
        }
      />
      <Typography variant="h2" sx={{ mt: 3, mb: 1, fontSize: '1.1rem' }}>
        Pending invitations
      </Typography>
      <EntityTable<Invite>
        urlKey="invites"
        label="Pending invitations"
        rows={data?.invites}
        loading={team.loading}
        error={null}
        rowKey={(i) => i.stamp}
        empty={TEAM_MESSAGES.noInvites}
        columns={[
          { id: 'email', label: 'Email', value: (i) => i.email },
          { id: 'role', label: 'Role', value: (i) => roleLabel(i.role) },
          { id: 'createdAt', label: 'Sent', nowrap: true, value: (i) => i.createdAt, render: (i) => <Time at={i.createdAt} /> },
          { id: 'expiresAt', label: 'Expires', nowrap: true, value: (i) => i.expiresAt, render: (i) => <Time at={i.expiresAt} /> },
        ]}
        actions={(i) =>
          team.canManage ? (
            <Button size="small" onClick={() => void team.withdraw(i.stamp)} aria-label={`Withdraw the invitation to ${i.email}`}>
              Withdraw
            </Button>
          ) : null
        }
      />
      <InviteDialog open={inviting} onClose={() => setInviting(false)} onSubmit={team.invite} />
      <ConfirmDialog
        open={!!removing}
        title="Remove member"
        text={removing ? TEAM_MESSAGES.confirmRemove(removing.user.email) : ''}
        onClose={() => setRemoving(null)}
        onConfirm={() => team.remove(removing!.user.stamp)}
      />
      <ConfirmDialog
        open={leaving}
        title="Leave client"
        text={TEAM_MESSAGES.confirmLeave(data?.client.name ?? 'this client')}
        confirmLabel="Leave"
        onClose={() => setLeaving(false)}
        onConfirm={async () => {
          if ((await team.leave()) === null) navigate('/account');
        }}
      />
    </Page>
  );
}
