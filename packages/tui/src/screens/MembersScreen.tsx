// The client's members and pending invitations: invite (n), make owner (o) or member (m), remove (d), leave (l).
import { useRef, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { formatTime, TEAM_MESSAGES, type Invite, type Member, loadFailure } from '@portal/core';
import { useMembers, useNotify } from '@portal/core/react';
import { ListView } from '../components/ListView';
import { useCapture, useLabel, useNav } from '../ui/context';

export default function MembersScreen() {
  const nav = useNav();
  const clientId = nav.params.clientId!;
  const team = useMembers(clientId);
  const notify = useNotify();
  const data = team.data;
  useLabel(clientId, data?.client.name);
  const [focus, setFocus] = useState<'members' | 'invites'>('members');
  const [leaving, setLeaving] = useState(false);
  const leavingRef = useRef(false);
  useCapture('all', leaving);
  const startLeave = () => {
    leavingRef.current = true;
    setLeaving(true);
  };
  const stopLeave = () => {
    leavingRef.current = false;
    setLeaving(false);
  };

  useInput(
    (input, key) => {
      if (!leavingRef.current) return;
      if (input === 'y' || input === 'Y') {
        stopLeave();
        void team.leave().then((failed) => {
          if (failed === null) nav.reset('/account');
        });
      } else if (input === 'n' || input === 'N' || key.escape) stopLeave();
    },
    { isActive: leaving },
  );

  const onMemberKey = (input: string, m: Member | undefined) => {
    if (input === 'i') setFocus('invites');
    else if (input === 'l') {
      if (team.leaveBlocked) notify(team.leaveBlocked, 'error');
      else startLeave();
    } else if ((input === 'o' || input === 'm') && m) void team.setRole(m.user.stamp, input === 'o' ? 'owner' : 'member');
    else return false;
    return true;
  };

  return (
    <Box flexDirection="column">
      <ListView<Member>
        title="Members"
        rows={data?.members}
        loading={team.loading}
        empty={TEAM_MESSAGES.noMembers}
        error={loadFailure(team.error)}
        keyOf={(m) => m.user.stamp}
        nameOf={(m) => m.user.email}
        cols={[
          { header: 'Email', keep: true, get: (m) => m.user.email },
          { header: 'Username', get: (m) => m.user.username },
          { header: 'Role', keep: true, get: (m) => (m.user.stamp === data?.me ? `${m.role} (you)` : m.role) },
          { header: 'Member since', get: (m) => formatTime(m.createdAt), at: (m) => m.createdAt },
        ]}
        create={team.canManage ? (email) => team.invite(email, 'member') : undefined}
        createLabel="Invite email"
        remove={team.canManage ? team.remove : undefined}
        onKey={onMemberKey}
        active={focus === 'members' && !leaving}
      />
      <Box marginTop={1}>
        <ListView<Invite>
          title="Pending invitations"
          rows={data?.invites}
          loading={team.loading}
          empty={TEAM_MESSAGES.noInvites}
          keyOf={(i) => i.stamp}
          nameOf={(i) => `the invitation to ${i.email}`}
          cols={[
            { header: 'Email', keep: true, get: (i) => i.email },
            { header: 'Role', keep: true, get: (i) => i.role },
            { header: 'Expires', get: (i) => formatTime(i.expiresAt), at: (i) => i.expiresAt },
          ]}
          remove={team.canManage ? team.withdraw : undefined}
          onKey={(input) => (input === 'i' ? (setFocus('members'), true) : false)}
          active={focus === 'invites' && !leaving}
        />
      </Box>
      {leaving ? <Text color="yellow">{TEAM_MESSAGES.confirmLeave(data?.client.name ?? 'this client')} (y/n)</Text> : null}
      {team.leaveBlocked ? <Text dimColor>{team.leaveBlocked}</Text> : null}
    </Box>
  );
}
