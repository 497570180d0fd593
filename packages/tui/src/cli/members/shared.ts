// What the members verbs share.
import { ROLES, emailKey, readClaims, type Member, type Role } from '@portal/core';
import type { Session } from '../context';
import { CliError, usageError } from '../errors';

export async function membersOf(s: Session) {
  const client = await s.client();
  const api = await s.api();
  const res = await api.calls.memberList({ client: client.stamp });
  const me = String(readClaims((await s.tokens()).get() ?? '')?.sub ?? '');
  return { client, api, members: res.member.list, me };
}

/** A member by user id or email (in core's one normal form, as the server compares them). */
export function find(members: readonly Member[], who: string): Member {
  const m = members.find((x) => x.user.stamp === who || emailKey(x.user.email) === emailKey(who));
  if (!m) throw new CliError(`No member ${who} in this account (see portal members list)`);
  return m;
}

export function role(value: string | undefined): Role {
  const r = (value ?? 'member').toLowerCase();
  if (!(ROLES as readonly string[]).includes(r)) throw usageError(`--role must be one of ${ROLES.join(', ')}, got "${value}"`);
  return r as Role;
}

/** Asks on a TTY unless --yes; without a terminal --yes is required. */
export async function confirm(s: Session, question: string, yes: boolean | undefined) {
  if (yes) return;
  if (!s.interactive) throw usageError('--yes is required without a terminal');
  const answer = await s.deps.prompter!.ask(`${question} (y/N): `);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Cancelled', 2);
}
