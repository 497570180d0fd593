// `portal audit`: show the audit log: sign-ins, members, invitations, keys, quotes, plan changes (owners only).
import { AUDIT_ACTION_NAMES, AUDIT_PAGE, AUDIT_PAGE_MAX, TEAM_MESSAGES, auditActionLabel, type AuditEntry } from '@portal/core';
import { time } from '../common';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'audit',
  summary: 'Show the audit log: members, invitations, keys, quotes, plan changes, projects and their work (owners only)',
  flags: [
    { flags: '--limit <n>', description: `how many entries, newest first (default ${AUDIT_PAGE})` },
    { flags: '--action <action>', description: `only this action: ${AUDIT_ACTION_NAMES.join(', ')}` },
  ],
  examples: ['portal audit', 'portal audit --limit 200 --json', 'portal audit --action member.role'],
};

export interface AuditOptions {
  action?: string;
}

export async function run(opts: AuditOptions, s: Session): Promise<void> {
  // --limit is read, checked and applied to the printed rows as on every list (the session's output).
  const limit = s.out.shape.limit ?? AUDIT_PAGE;
  const client = await s.client();
  const api = await s.api();
  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  // Pages of at most AUDIT_PAGE_MAX until the limit is reached or the log ends.
  while (entries.length < limit) {
    const page = await api.calls.audit({
      client: client.stamp,
      cursor,
      limit: Math.min(AUDIT_PAGE_MAX, limit - entries.length),
      action: opts.action,
    });
    entries.push(...page.audit.list);
    if (!page.audit.next) break;
    cursor = page.audit.next;
  }
  s.out.list(
    entries,
    [
      { header: 'When', get: (e) => time(e.at) },
      { header: 'Who', get: (e) => e.actor.email },
      { header: 'Action', get: (e) => auditActionLabel(e.action) },
      { header: 'Target', get: (e) => e.target },
      { header: 'Detail', get: (e) => e.detail },
    ],
    TEAM_MESSAGES.noAudit,
  );
}
