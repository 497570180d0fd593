// `portal login`: sign in; the token is kept in your config folder (mode 0600).
import { checkOtp, needsOtp } from '@portal/core';
import { CliError, usageError } from '../errors';
import { readAll } from '../prompt';
import { EMAIL_FLAG, remember, printNextStep } from './shared';
import type { Session } from '../context';
import { stdinFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'login',
  summary: 'Sign in; the token is kept in your config folder (mode 0600)',
  flags: [
    EMAIL_FLAG,
    stdinFlag('password', 'the password'),
    { flags: '--otp <code>', description: 'two-factor sign-in: the code from your authenticator app, or a recovery code' },
    stdinFlag('otp', 'the two-factor code', 'the line after the password with --password-stdin'),
  ],
  examples: [
    'portal login',
    'echo "$PORTAL_PASSWORD" | portal login --email ada@example.com --password-stdin',
    'printf "%s\\n%s\\n" "$PORTAL_PASSWORD" "$CODE" | portal login --email ada@example.com --password-stdin --otp-stdin',
  ],
};

export interface LoginOptions {
  email?: string;
  passwordStdin?: boolean;
  otp?: string;
  otpStdin?: boolean;
}

export async function run(opts: LoginOptions, s: Session): Promise<void> {
  if (opts.otp !== undefined && opts.otpStdin) throw usageError('Give the code with --otp or --otp-stdin, not both');
  const email = (await s.need(opts.email, '--email', 'Email')).trim();
  // Standard input is read once: the password is its first line and the code its second when both come from it.
  let lines: Promise<string[]> | undefined;
  const stdinLine = async (i: number) => ((await (lines ??= readAll(s.deps.stdin).then((t) => t.split(/\r?\n/))))[i] ?? '').trim();
  const password =
    opts.passwordStdin && opts.otpStdin ? await stdinLine(0) : await s.secret(opts.passwordStdin, '--password-stdin', 'Password');
  if (!email || !password) throw usageError('Both the email and the password are required');
  const api = await s.api();
  let res = await api.calls.login({ email, password });
  if (needsOtp(res)) {
    const code = opts.otpStdin
      ? await stdinLine(opts.passwordStdin ? 1 : 0)
      : await s.need(opts.otp, '--otp', 'Two-factor code (authenticator app or recovery code)');
    const problem = checkOtp(code);
    if (problem) throw new CliError(problem);
    res = await api.calls.loginOtp({ challenge: res.otp.challenge, code });
  }
  const login = res.login;
  await remember(s, login.client.list);
  await s.save();
  const names = login.client.list.map((c) => c.name).join(', ');
  s.out.done(login, `Signed in as ${email}${names ? ` (${names})` : ''}`);
  await printNextStep(s, api, res.token, login.client.list);
}
