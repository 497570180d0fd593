// `portal account show`: show your account: email, username, two-factor sign-in, an email change waiting for confirmation.
import { time } from '../common';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'show',
  summary: 'Show your account: email, username, two-factor sign-in, an email change waiting for confirmation',
  examples: ['portal account show', 'portal account show --json'],
};

export type ShowOptions = Record<string, never>;

export async function run(_opts: ShowOptions, s: Session): Promise<void> {
  const { account: a } = await (await s.api()).calls.accountShow();
  s.out.object(a, [
    ['Email', a.email],
    ['Username', a.username],
    ['Created', time(a.createdAt)],
    ['Two-factor sign-in', a.otp ? 'On' : 'Off'],
    ['Email change', a.pendingEmail ? `to ${a.pendingEmail.email}, waiting for its link until ${time(a.pendingEmail.expiresAt)}` : ''],
  ]);
}
