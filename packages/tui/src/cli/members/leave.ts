// `portal members leave`: leave the account (the last owner cannot).
import { TEAM_MESSAGES } from '@portal/core';
import { membersOf, confirm } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'leave',
  summary: 'Leave the account (the last owner cannot)',
  flags: [{ flags: '--yes', description: 'do not ask for confirmation' }],
};

export interface LeaveOptions {
  yes?: boolean;
}

export async function run(opts: LeaveOptions, s: Session): Promise<void> {
  const { client, api, me } = await membersOf(s);
  await confirm(s, TEAM_MESSAGES.confirmLeave(client.name), opts.yes);
  await api.calls.memberRemove({ client: client.stamp, user: me });
  s.out.done({ ok: true }, TEAM_MESSAGES.left);
}
