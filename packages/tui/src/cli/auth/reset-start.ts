// `portal auth reset-start`: send a password-reset link to your email.
import { MESSAGES } from '@portal/core';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';
import { EMAIL_FLAG } from './shared';

export const options: VerbOptions = {
  usage: 'reset-start',
  summary: 'Send a password-reset link to your email',
  flags: [EMAIL_FLAG],
  examples: ['portal password reset-start --email ada@example.com'],
};

export interface ResetStartOptions {
  email?: string;
}

export async function run(opts: ResetStartOptions, s: Session): Promise<void> {
  const email = (await s.need(opts.email, '--email', 'Email')).trim();
  const api = await s.api();
  const res = await api.calls.resetStart({ email });
  s.out.done(res, MESSAGES.resetStarted);
}
