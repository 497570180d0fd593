// `portal members remove`: remove a member (user id or email): they lose access at once; owners only.
import { TEAM_MESSAGES } from '@portal/core';
import { membersOf, find, confirm } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'remove <user>',
  summary: 'Remove a member (user id or email): they lose access at once; owners only',
  flags: [{ flags: '--yes', description: 'do not ask for confirmation' }],
};

export interface RemoveOptions {
  user: string;
  yes?: boolean;
}

export async function run(opts: RemoveOptions, s: Session): Promise<void> {
  const { user: who } = opts;
  const { client, api, members: list } = await membersOf(s);
  const m = find(list, who);
  await confirm(s, TEAM_MESSAGES.confirmRemove(m.user.email), opts.yes);
  await api.calls.memberRemove({ client: client.stamp, user: m.user.stamp });
  s.out.done({ ok: true }, TEAM_MESSAGES.removed(m.user.email));
}
