// The client's audit log, newest first: > older page, < newer page, a steps through the action filter.
import { AUDIT_ACTION_NAMES, auditActionLabel, formatTime, TEAM_MESSAGES, type AuditEntry, loadFailure } from '@portal/core';
import { useAudit, useClient } from '@portal/core/react';
import { LogView } from '../components/LogView';
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
    <LogView<AuditEntry>
      log={audit}
      title="Audit Log"
      rows={audit.data?.entries}
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
        if (input !== 'a') return false;
        audit.setAction(FILTERS[(FILTERS.indexOf(audit.action) + 1) % FILTERS.length]);
        return true;
      }}
      note={` · Action: ${audit.action ? auditActionLabel(audit.action) : 'all'}`}
    />
  );
}
