// `portal audit`: the account's audit log, newest first (owners only), as many entries as --limit asks for.
import type { Command } from 'commander';
import { AUDIT_ACTION_NAMES, AUDIT_PAGE, AUDIT_PAGE_MAX, TEAM_MESSAGES, auditActionLabel, type AuditEntry } from '@portal/core';
import type { Deps } from './context';
import { act, examples, time } from './common';

export function register(program: Command, deps: Deps): void {
  program
    .command('audit')
    .description('Show the audit log: members, invitations, keys, quotes, plan changes, projects and their work (owners only)')
    .option('--limit <n>', `how many entries, newest first (default ${AUDIT_PAGE})`)
    .option('--action <action>', `only this action: ${AUDIT_ACTION_NAMES.join(', ')}`)
    .addHelpText('after', examples('portal audit', 'portal audit --limit 200 --json', 'portal audit --action member.role'))
    .action(
      act(deps, async (s, opts: { action?: string }) => {
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
      }),
    );
}
