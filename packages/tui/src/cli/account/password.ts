// `portal account password`: see its summary.
import { ACCOUNT_MESSAGES, LENGTHS, checkCurrentPassword, checkPassword, checkPasswordMatch } from '@portal/core';
import { CliError } from '../errors';
import { stdinLines, must } from './shared';
import type { Session } from '../context';
import { stdinFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'password',
  summary: `Change your password (${LENGTHS.password} characters, as at sign-up); every other session is signed out`,
  flags: [stdinFlag('password', 'the current password, then the new one,', 'one a line')],
  examples: ['portal account password', 'printf "%s\\n%s\\n" "$OLD_PW" "$NEW_PW" | portal account password --password-stdin'],
};

export interface PasswordOptions {
  passwordStdin?: boolean;
}

export async function run(opts: PasswordOptions, s: Session): Promise<void> {
  const line = stdinLines(s);
  const current = opts.passwordStdin ? await line(0) : await s.secret(false, '--password-stdin', 'Current password');
  must(checkCurrentPassword(current));
  const password = opts.passwordStdin ? await line(1) : await s.secret(false, '--password-stdin', 'New password');
  must(checkPassword(password));
  if (!opts.passwordStdin) must(checkPasswordMatch(password, await s.deps.prompter!.ask('Confirm new password: ', { secret: true })));
  if (current === password) throw new CliError(ACCOUNT_MESSAGES.passwordSame);
  const r = await (await s.api()).calls.passwordChange({ current, password });
  s.out.done(r, ACCOUNT_MESSAGES.passwordChanged);
}
