// The client's audit log, newest first, a page at a time, filtered by action (owners only: others see the server's sentence).
import { useParams } from 'react-router-dom';
import { Button, Stack, TextField, Typography } from '@mui/material';
import { AUDIT_ACTIONS, auditActionLabel, TEAM_MESSAGES, type AuditEntry, loadFailure } from '@portal/core';
import { useAudit, useClient } from '@portal/core/react';
import { Page } from '../components/Page';
import { EntityTable } from '../components/EntityTable';
import { useCrumbNames } from '../layout/ChromeContext';
import { Time } from '../components/Time';

export default function AuditPage() {
  const { clientId = '' } = useParams();
  const audit = useAudit(clientId);
  const { client } = useClient(clientId);
  useCrumbNames({ client: client?.name });
  const denied = audit.error?.status === 403 ? (audit.error.serverMessage ?? TEAM_MESSAGES.auditOwnersOnly) : null;
  return (
    <Page
      title="Audit Log"
      actions={
        <TextField
          select
          size="small"
          label="Action"
          value={audit.action}
          onChange={(e) => audit.setAction(e.target.value)}
          sx={{ minWidth: 220 }}
          slotProps={{ select: { native: true } }}
        >
          <option value="">All actions</option>
          {Object.entries(AUDIT_ACTIONS).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
        </TextField>
      }
    >
      {denied ? (
        <Typography role="alert">{denied}</Typography>
      ) : (
        <>
          <EntityTable<AuditEntry>
            label="Audit log"
            rows={audit.data?.entries}
            loading={audit.loading}
            error={loadFailure(audit.error, TEAM_MESSAGES.loadAudit)}
            onRetry={() => void audit.reload()}
            rowKey={(e) => `${e.at}-${e.action}-${e.target}-${e.actor.stamp}-${e.detail}`}
            empty={TEAM_MESSAGES.noAudit}
            filter={false}
            columns={[
              { id: 'at', label: 'When', nowrap: true, value: (e) => e.at, render: (e) => <Time at={e.at} /> },
              { id: 'actor', label: 'Who', value: (e) => e.actor.email },
              { id: 'action', label: 'Action', value: (e) => auditActionLabel(e.action) },
              { id: 'target', label: 'Target', value: (e) => e.target },
              { id: 'detail', label: 'Detail', value: (e) => e.detail },
            ]}
          />
          <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center', justifyContent: 'flex-end' }}>
            <Button onClick={audit.newer} disabled={audit.page <= 1}>
              Newer
            </Button>
            <Typography variant="body2">Page {audit.page}</Typography>
            <Button onClick={audit.older} disabled={!audit.hasOlder}>
              Older
            </Button>
          </Stack>
        </>
      )}
    </Page>
  );
}
