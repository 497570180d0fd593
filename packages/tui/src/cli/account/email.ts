// `portal account email`: see its summary.
import { ACCOUNT_MESSAGES, EMAIL_CONFIRM_TTL_S, checkCurrentPassword, checkEmail } from '@portal/core';
import { usageError } from '../errors';
import { must } from './shared';
import type { Session } from '../context';
import { stdinFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'email [new-address]',
  summary: `Change your email address: a link goes to the new address (it works once, for ${EMAIL_CONFIRM_TTL_S / 3600} hours) and a notice to the current one`,
  flags: [stdinFlag('password', 'your current password'), { flags: '--cancel', description: 'cancel the change waiting for confirmation' }],
  examples: [
    'portal account email ada@new.example.com',
    'echo "$PW" | portal account email ada@new.example.com --password-stdin',
    'portal account email --cancel',
  ],
};

export interface EmailOptions {
  newAddress?: string;
  passwordStdin?: boolean;
  cancel?: boolean;
}

export async function run(opts: EmailOptions, s: Session): Promise<void> {
  const { newAddress: address } = opts;
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
}
