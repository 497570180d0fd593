// `portal account delete`: see its summary.
import { ACCOUNT_MESSAGES, checkCurrentPassword, checkOtp } from '@portal/core';
import { CliError, usageError } from '../errors';
import { stdinLines, must } from './shared';
import type { Session } from '../context';
import { stdinFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'delete',
  summary: 'Delete your account: asks your password (and a two-factor code when it is on); you are signed out everywhere',
  flags: [
    stdinFlag('password', 'your password', 'the first line; the code may follow on the second'),
    { flags: '--otp <code>', description: 'two-factor sign-in on: the code from your authenticator app, or a recovery code' },
    { flags: '--yes', description: 'do not ask for confirmation (required without a terminal)' },
  ],
  examples: ['portal account delete', 'printf "%s\\n" "$PW" | portal account delete --password-stdin --otp 123456 --yes'],
};

export interface DeleteAccountOptions {
  passwordStdin?: boolean;
  otp?: string;
  yes?: boolean;
}

export async function run(opts: DeleteAccountOptions, s: Session): Promise<void> {
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
}
