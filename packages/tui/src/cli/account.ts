// `portal account`: your own account – show it and its security events, change the password or the email address
// (confirmed by the link mailed to the new one), export everything it holds as one JSON file, delete it.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  ACCOUNT_EVENTS_PAGE,
  ACCOUNT_EVENTS_PAGE_MAX,
  ACCOUNT_EXPORT_ROWS_MAX,
  ACCOUNT_MESSAGES,
  ACCOUNT_EXPORT_SECTIONS,
  EMAIL_CONFIRM_TTL_S,
  LENGTHS,
  accountExportName,
  checkCurrentPassword,
  checkEmail,
  checkOtp,
  checkPassword,
  checkPasswordMatch,
  accountEventLabel,
  resetTokenFrom,
  type AccountEvent,
} from '@portal/core';
import type { Deps, Session } from './context';
import { act, examples, time } from './common';
import { CliError, usageError } from './errors';
import { readAll } from './prompt';

/** The lines of standard input, read once (several secrets may come from it, one a line). */
function stdinLines(s: Session): (i: number) => Promise<string> {
  let lines: Promise<string[]> | undefined;
  return async (i) => (await (lines ??= readAll(s.deps.stdin).then((t) => t.split(/\r?\n/))))[i] ?? '';
}

/** A rule's verdict as the command's failure. */
const must = (problem: string | null) => {
  if (problem) throw new CliError(problem);
};

export function register(program: Command, deps: Deps): void {
  const account = program
    .command('account')
    .description('Your own account: password, email address, export of your data, deletion')
    .addHelpText('after', examples('portal account show', 'portal account password', 'portal account export --output my-data.json'));

  account
    .command('events')
    .description('Show your security events, newest first: sign-ins from new addresses, password, email and two-factor changes')
    .option('--limit <n>', `how many events, newest first (default ${ACCOUNT_EVENTS_PAGE})`)
    .addHelpText('after', examples('portal account events', 'portal account events --limit 100 --json'))
    .action(
      act(deps, async (s) => {
        // --limit is read, checked and applied to the printed rows as on every list (the session's output).
        const limit = s.out.shape.limit ?? ACCOUNT_EVENTS_PAGE;
        const api = await s.api();
        const events: AccountEvent[] = [];
        let cursor: string | undefined;
        // Pages of at most ACCOUNT_EVENTS_PAGE_MAX until the limit is reached or the log ends.
        while (events.length < limit) {
          const page = await api.calls.accountEvents({ cursor, limit: Math.min(ACCOUNT_EVENTS_PAGE_MAX, limit - events.length) });
          events.push(...page.event.list);
          if (!page.event.next) break;
          cursor = page.event.next;
        }
        s.out.list(
          events.map((e) => ({ ...e, label: accountEventLabel(e) })),
          [
            { header: 'When', get: (e) => time(e.at) },
            { header: 'Event', get: (e) => e.label },
          ],
          ACCOUNT_MESSAGES.noEvents,
        );
      }),
    );

  account
    .command('show')
    .description('Show your account: email, username, two-factor sign-in, an email change waiting for confirmation')
    .addHelpText('after', examples('portal account show', 'portal account show --json'))
    .action(
      act(deps, async (s) => {
        const { account: a } = await (await s.api()).calls.accountShow();
        s.out.object(a, [
          ['Email', a.email],
          ['Username', a.username],
          ['Created', time(a.createdAt)],
          ['Two-factor sign-in', a.otp ? 'On' : 'Off'],
          [
            'Email change',
            a.pendingEmail ? `to ${a.pendingEmail.email}, waiting for its link until ${time(a.pendingEmail.expiresAt)}` : '',
          ],
        ]);
      }),
    );

  account
    .command('password')
    .description(`Change your password (${LENGTHS.password} characters, as at sign-up); every other session is signed out`)
    .option('--password-stdin', 'read the current password, then the new one, from standard input (one a line)')
    .addHelpText(
      'after',
      examples('portal account password', 'printf "%s\\n%s\\n" "$OLD_PW" "$NEW_PW" | portal account password --password-stdin'),
    )
    .action(
      act(deps, async (s, opts: { passwordStdin?: boolean }) => {
        const line = stdinLines(s);
        const current = opts.passwordStdin ? await line(0) : await s.secret(false, '--password-stdin', 'Current password');
        must(checkCurrentPassword(current));
        const password = opts.passwordStdin ? await line(1) : await s.secret(false, '--password-stdin', 'New password');
        must(checkPassword(password));
        if (!opts.passwordStdin) must(checkPasswordMatch(password, await s.deps.prompter!.ask('Confirm new password: ', { secret: true })));
        if (current === password) throw new CliError(ACCOUNT_MESSAGES.passwordSame);
        const r = await (await s.api()).calls.passwordChange({ current, password });
        s.out.done(r, ACCOUNT_MESSAGES.passwordChanged);
      }),
    );

  account
    .command('email [new-address]')
    .description(
      `Change your email address: a link goes to the new address (it works once, for ${EMAIL_CONFIRM_TTL_S / 3600} hours) and a notice to the current one`,
    )
    .option('--password-stdin', 'read your current password from standard input')
    .option('--cancel', 'cancel the change waiting for confirmation')
    .addHelpText(
      'after',
      examples(
        'portal account email ada@new.example.com',
        'echo "$PW" | portal account email ada@new.example.com --password-stdin',
        'portal account email --cancel',
      ),
    )
    .action(
      act(deps, async (s, address: string | undefined, opts: { passwordStdin?: boolean; cancel?: boolean }) => {
        if (opts.cancel) {
          if (address !== undefined) throw usageError('Give a new address or --cancel, not both');
          const r = await (await s.api()).calls.emailChangeCancel();
          return s.out.done(r.account, ACCOUNT_MESSAGES.emailCancelled);
        }
        const email = (await s.need(address, 'the new address', 'New email address')).trim();
        must(checkEmail(email));
        const password = await s.secret(opts.passwordStdin, '--password-stdin', 'Current password');
        must(checkCurrentPassword(password));
        const r = await (await s.api()).calls.emailChange({ email, password });
        s.out.done(r.account, ACCOUNT_MESSAGES.emailSent(r.account.pendingEmail?.email ?? email));
      }),
    );

  account
    .command('confirm-email <link-or-token>')
    .description('Confirm a new email address with the link mailed to it (no sign-in needed)')
    .addHelpText('after', examples('portal account confirm-email "https://portal.example.com/account/email/confirm?token=..."'))
    .action(
      act(deps, async (s, link: string) => {
        const token = resetTokenFrom(link);
        if (!token) throw new CliError(ACCOUNT_MESSAGES.emailLinkInvalid);
        const r = await (await s.api()).calls.emailConfirm({ token });
        s.out.done(r, ACCOUNT_MESSAGES.emailConfirmed(r.email));
      }),
    );

  account
    .command('export')
    .description(
      `Save everything your account holds as one JSON file: profile, clients, projects, uploads, requests, models, keys' and integrations' details (never their secrets), audit log; at most ${ACCOUNT_EXPORT_ROWS_MAX} rows a section`,
    )
    .option('-o, --output <file>', 'write to this file ("-" for standard output) instead of portal-<username>-<date>.json here')
    .addHelpText(
      'after',
      examples('portal account export', 'portal account export --output my-data.json', 'portal account export -o - | jq .projects'),
    )
    .action(
      act(deps, async (s, opts: { output?: string }) => {
        const data = await (await s.api()).calls.accountExport();
        const text = `${JSON.stringify(data, null, 2)}\n`;
        if (opts.output === '-') return void s.deps.stdout.write(text);
        const file = resolve(s.deps.cwd, opts.output ?? accountExportName(data.user.username, data.exportedAt));
        await writeFile(file, text, { mode: 0o600 });
        const counts = Object.fromEntries(ACCOUNT_EXPORT_SECTIONS.map((k) => [k, data[k].length]));
        s.out.done({ file, bytes: Buffer.byteLength(text), ...counts, truncated: data.truncated }, ACCOUNT_MESSAGES.exported(file));
        if (data.truncated.length) s.out.notice(`Cut at ${ACCOUNT_EXPORT_ROWS_MAX} rows: ${data.truncated.join(', ')}.`);
      }),
    );

  account
    .command('delete')
    .description('Delete your account: asks your password (and a two-factor code when it is on); you are signed out everywhere')
    .option('--password-stdin', `read your password from standard input (the first line; the code may follow on the second)`)
    .option('--otp <code>', 'two-factor sign-in on: the code from your authenticator app, or a recovery code')
    .option('--yes', 'do not ask for confirmation (required without a terminal)')
    .addHelpText(
      'after',
      examples('portal account delete', 'printf "%s\\n" "$PW" | portal account delete --password-stdin --otp 123456 --yes'),
    )
    .action(
      act(deps, async (s, opts: { passwordStdin?: boolean; otp?: string; yes?: boolean }) => {
        if (!opts.yes) {
          if (!s.interactive) throw usageError(ACCOUNT_MESSAGES.deleteNotConfirmed);
          const answer = await s.deps.prompter!.ask(`${ACCOUNT_MESSAGES.deleteConfirm} (y/N): `);
          if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Cancelled', 2);
        }
        const line = stdinLines(s);
        const password = opts.passwordStdin ? await line(0) : await s.secret(false, '--password-stdin', 'Password');
        must(checkCurrentPassword(password));
        const api = await s.api();
        const { account: a } = await api.calls.accountShow();
        let code = opts.otp ?? (opts.passwordStdin ? (await line(1)).trim() || undefined : undefined);
        if (a.otp && code === undefined) code = await s.need(undefined, '--otp', 'Two-factor code (authenticator app or recovery code)');
        if (code !== undefined) must(checkOtp(code));
        const r = await api.calls.accountDelete({ password, ...(code !== undefined ? { code } : {}) });
        // Every session ended on the server: the stored token is worthless, so it goes too.
        const store = await s.store();
        store.forget(await s.baseUrl());
        await s.save();
        s.out.done(r, ACCOUNT_MESSAGES.deleted);
      }),
    );
}
