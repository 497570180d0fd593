// `portal invites accept`: accept an invitation sent to your email address (the token or the whole link).
import { TEAM_MESSAGES } from '@portal/core';
import { tokenOf } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'accept <token>',
  summary: 'Accept an invitation sent to your email address (the token or the whole link)',
};

export interface AcceptOptions {
  token: string;
}

export async function run(opts: AcceptOptions, s: Session): Promise<void> {
  const { token } = opts;
  const api = await s.api();
  const res = await api.calls.inviteAccept({ token: tokenOf(token.trim()) });
  s.out.done(res, `${TEAM_MESSAGES.joined(res.client.name)} (${res.client.stamp}, as ${res.member.role})`);
}
