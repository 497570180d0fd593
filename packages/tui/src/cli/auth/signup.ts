// `portal signup`: create a user and an account (named after your company), then sign in.
import { MESSAGES, checkSignup, firstError, LENGTHS } from '@portal/core';
import { CliError, usageError } from '../errors';
import { EMAIL_FLAG, remember, printNextStep } from './shared';
import type { Session } from '../context';
import { stdinFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'signup',
  summary: 'Create a user and an account (named after your company), then sign in',
  flags: [
    EMAIL_FLAG,
    { flags: '--username <name>', description: `${LENGTHS.username} letters, digits, dashes or underscores` },
    { flags: '--name <company>', description: `company name, ${LENGTHS.company} characters` },
    stdinFlag('password', 'the password'),
    { flags: '--accept-terms', description: 'agree to the privacy policy and terms of service' },
  ],
  examples: [
    'portal signup',
    'echo "$PW" | portal signup --email ada@example.com --username ada_l --name "Analytical Engines" --password-stdin --accept-terms',
  ],
};

export interface SignupOptions {
  email?: string;
  username?: string;
  name?: string;
  passwordStdin?: boolean;
  acceptTerms?: boolean;
}

export async function run(opts: SignupOptions, s: Session): Promise<void> {
  const email = (await s.need(opts.email, '--email', 'Email')).trim();
  const username = await s.need(opts.username, '--username', 'Username');
  const name = await s.need(opts.name, '--name', 'Company name');
  const password = await s.secret(opts.passwordStdin, '--password-stdin', 'Password');
  const confirm = opts.passwordStdin ? password : await s.deps.prompter!.ask('Confirm password: ', { secret: true });
  let terms = !!opts.acceptTerms;
  if (!terms && s.interactive)
    terms = /^y(es)?$/i.test((await s.deps.prompter!.ask('Do you agree to the privacy policy and terms of service? (y/N): ')).trim());
  if (!terms && !s.interactive) throw usageError(`${MESSAGES.terms} (--accept-terms)`);
  const problem = firstError(checkSignup({ email, username, name, password, confirm, terms }));
  if (problem) throw new CliError(problem);
  const api = await s.api();
  const res = await api.calls.signup({ email, username, password, name: name.trim() });
  await remember(s, res.login.client.list);
  s.out.done(res.login, `Signed up and signed in as ${email}`);
  await printNextStep(s, api, res.token, res.login.client.list);
}
