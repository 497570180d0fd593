// `portal invites list`: list pending invitations: email, role, sent, expires.
import { TEAM_MESSAGES } from '@portal/core';
import { time } from '../common';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'list',
  summary: 'List pending invitations: email, role, sent, expires',
};

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, s: Session): Promise<void> {
  const client = await s.client();
  const api = await s.api();
  const res = await api.calls.inviteList({ client: client.stamp });
  s.out.list(
    res.invite.list,
    [
      { header: 'Email', get: (i) => i.email },
      { header: 'Role', get: (i) => i.role },
      { header: 'ID', get: (i) => i.stamp },
      { header: 'Sent', get: (i) => time(i.createdAt) },
      { header: 'Expires', get: (i) => time(i.expiresAt) },
    ],
    TEAM_MESSAGES.noInvites,
  );
}
