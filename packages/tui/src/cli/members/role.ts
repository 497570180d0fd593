// `portal members role`: change a member's role (user id or email); owners only, and the last owner stays one.
import { ROLES, TEAM_MESSAGES } from '@portal/core';
import { membersOf, find, role } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'role <user>',
  summary: "Change a member's role (user id or email); owners only, and the last owner stays one",
  flags: [{ flags: '--role <role>', description: ROLES.join(' or ') }],
};

export interface RoleOptions {
  user: string;
  role?: string;
}

export async function run(opts: RoleOptions, s: Session): Promise<void> {
  const { user: who } = opts;
  const r = role(await s.need(opts.role, '--role', 'Role (owner or member)'));
  const { client, api, members: list } = await membersOf(s);
  const m = find(list, who);
  const { member } = await api.calls.memberRole({ client: client.stamp, user: m.user.stamp, role: r });
  s.out.done(member, TEAM_MESSAGES.roleChanged(member.user.email, member.role));
}
