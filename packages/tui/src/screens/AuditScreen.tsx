// The client's audit log, newest first: > older page, < newer page, a steps through the action filter.
import { Box, Text } from 'ink';
import { AUDIT_ACTION_NAMES, auditActionLabel, formatTime, TEAM_MESSAGES, type AuditEntry, loadFailure } from '@portal/core';
import { useAudit, useClient } from '@portal/core/react';
import { ListView } from '../components/ListView';
import { useLabel, useNav } from '../ui/context';

const FILTERS = ['', ...AUDIT_ACTION_NAMES];

export default function AuditScreen() {
  const nav = useNav();
  const clientId = nav.params.clientId!;
  const audit = useAudit(clientId);
  const { client } = useClient(clientId);
  useLabel(clientId, client?.name);
  const denied = audit.error?.status === 403 ? (audit.error.serverMessage ?? TEAM_MESSAGES.auditOwnersOnly) : null;
  return (
    <Box flexDirection="column">
      <ListView<AuditEntry>
        title="Audit Log"
        rows={audit.data?.entries}
        loading={audit.loading}
        empty={TEAM_MESSAGES.noAudit}
        error={denied ?? loadFailure(audit.error, TEAM_MESSAGES.loadAudit)}
        keyOf={(e) => `${e.at}-${e.action}-${e.target}-${e.actor.stamp}-${e.detail}`}
        nameOf={(e) => e.action}
        cols={[
          { header: 'When', get: (e) => formatTime(e.at), at: (e) => e.at },
          { header: 'Who', keep: true, get: (e) => e.actor.email },
          { header: 'Action', get: (e) => auditActionLabel(e.action) },
          { header: 'Target', get: (e) => e.target },
          { header: 'Detail', get: (e) => e.detail },
        ]}
        onKey={(input) => {
          if (input === '>') audit.older();
          else if (input === '<') audit.newer();
          else if (input === 'a') audit.setAction(FILTERS[(FILTERS.indexOf(audit.action) + 1) % FILTERS.length]);
          else return false;
          return true;
        }}
      />
      <Text dimColor>
        Page {audit.page}
        {audit.hasOlder ? ' · > older' : ''}
        {audit.page > 1 ? ' · < newer' : ''} · Action: {audit.action ? auditActionLabel(audit.action) : 'all'}
      </Text>
    </Box>
  );
}
