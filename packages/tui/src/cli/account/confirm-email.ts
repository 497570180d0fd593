// `portal account confirm-email`: confirm a new email address with the link mailed to it (no sign-in needed).
import { ACCOUNT_MESSAGES, resetTokenFrom } from '@portal/core';
import { CliError } from '../errors';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'confirm-email <link-or-token>',
  summary: 'Confirm a new email address with the link mailed to it (no sign-in needed)',
  examples: ['portal account confirm-email "https://portal.example.com/account/email/confirm?token=..."'],
};

export interface ConfirmEmailOptions {
  linkOrToken: string;
}

export async function run(opts: ConfirmEmailOptions, s: Session): Promise<void> {
  const { linkOrToken: link } = opts;
  const token = resetTokenFrom(link);
  if (!token) throw new CliError(ACCOUNT_MESSAGES.emailLinkInvalid);
  const r = await (await s.api()).calls.emailConfirm({ token });
  s.out.done(r, ACCOUNT_MESSAGES.emailConfirmed(r.email));
}
