// `portal members invite`: mail an invitation (a link that works once, for 7 days); owners only.
import { ROLES, TEAM_MESSAGES } from '@portal/core';
import { role } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'invite',
  summary: 'Mail an invitation (a link that works once, for 7 days); owners only',
  flags: [
    { flags: '--email <email>', description: "the invitee's email address" },
    { flags: '--role <role>', description: `${ROLES.join(' or ')} (default member)` },
  ],
};

export interface InviteOptions {
  email?: string;
  role?: string;
}

export async function run(opts: InviteOptions, s: Session): Promise<void> {
  const email = (await s.need(opts.email, '--email', 'Email')).trim();
  const client = await s.client();
  const api = await s.api();
  const { invite } = await api.calls.inviteCreate({ client: client.stamp, email, role: role(opts.role) });
  s.out.done(invite, `${TEAM_MESSAGES.invited(invite.email)} (${invite.stamp})`);
}
