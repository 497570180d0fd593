// `portal auth reset-finish`: set a new password with the token from the reset email.
import { MESSAGES, checkPassword, checkPasswordMatch, resetTokenFrom } from '@portal/core';
import { CliError } from '../errors';
import type { Session } from '../context';
import { stdinFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'reset-finish',
  summary: 'Set a new password with the token from the reset email',
  flags: [{ flags: '--token <token>', description: 'the link from the email, or its token' }, stdinFlag('password', 'the new password')],
  examples: [
    'portal password reset-finish --token "$TOKEN"',
    'echo "$NEW_PW" | portal password reset-finish --token "$TOKEN" --password-stdin',
  ],
};

export interface ResetFinishOptions {
  token?: string;
  passwordStdin?: boolean;
}

export async function run(opts: ResetFinishOptions, s: Session): Promise<void> {
  const token = resetTokenFrom(await s.need(opts.token, '--token', 'Link or token from the email'));
  const pw = await s.secret(opts.passwordStdin, '--password-stdin', 'New password');
  const confirm = opts.passwordStdin ? pw : await s.deps.prompter!.ask('Confirm password: ', { secret: true });
  const problem = checkPassword(pw) ?? checkPasswordMatch(pw, confirm);
  if (problem) throw new CliError(problem);
  const api = await s.api();
  const res = await api.calls.resetFinish({ token, password: pw });
  s.out.done(res, `${MESSAGES.passwordChanged} Sign in with portal login.`);
}
