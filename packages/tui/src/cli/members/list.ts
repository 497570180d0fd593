// `portal members list`: list members: email, username, role, member since.
import { TEAM_MESSAGES } from '@portal/core';
import { time } from '../common';
import { membersOf } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'list',
  summary: 'List members: email, username, role, member since',
};

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, s: Session): Promise<void> {
  const { members: list } = await membersOf(s);
  s.out.list(
    list,
    [
      { header: 'Email', get: (m) => m.user.email },
      { header: 'Username', get: (m) => m.user.username },
      { header: 'Role', get: (m) => m.role },
      { header: 'ID', get: (m) => m.user.stamp },
      { header: 'Member since', get: (m) => time(m.createdAt) },
    ],
    TEAM_MESSAGES.noMembers,
  );
}
