// `portal members`: list, invite, role, remove, leave — the client's members and their roles (owners manage them).
import type { Command } from 'commander';
import { ROLES, TEAM_MESSAGES, emailKey, readClaims, type Member, type Role } from '@portal/core';
import type { Deps, Session } from './context';
import { act, examples, time } from './common';
import { CliError, usageError } from './errors';

export async function membersOf(s: Session) {
  const client = await s.client();
  const api = await s.api();
  const res = await api.calls.memberList({ client: client.stamp });
  const me = String(readClaims((await s.tokens()).get() ?? '')?.sub ?? '');
  return { client, api, members: res.member.list, me };
}

/** A member by user id or email (in core's one normal form, as the server compares them). */
function find(members: readonly Member[], who: string): Member {
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
async function confirm(s: Session, question: string, yes: boolean | undefined) {
  if (yes) return;
  if (!s.interactive) throw usageError('--yes is required without a terminal');
  const answer = await s.deps.prompter!.ask(`${question} (y/N): `);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Cancelled', 2);
}

export function register(program: Command, deps: Deps): void {
  const members = program
    .command('members')
    .description("The account's members and their roles; owners invite, change roles and remove")
    .addHelpText(
      'after',
      examples('portal members list', 'portal members invite --email ada@example.com --role member', 'portal members leave --yes'),
    );

  members
    .command('list')
    .description('List members: email, username, role, member since')
    .action(
      act(deps, async (s) => {
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
      }),
    );

  members
    .command('invite')
    .description('Mail an invitation (a link that works once, for 7 days); owners only')
    .option('--email <email>', "the invitee's email address")
    .option('--role <role>', `${ROLES.join(' or ')} (default member)`)
    .action(
      act(deps, async (s, opts: { email?: string; role?: string }) => {
        const email = (await s.need(opts.email, '--email', 'Email')).trim();
        const client = await s.client();
        const api = await s.api();
        const { invite } = await api.calls.inviteCreate({ client: client.stamp, email, role: role(opts.role) });
        s.out.done(invite, `${TEAM_MESSAGES.invited(invite.email)} (${invite.stamp})`);
      }),
    );

  members
    .command('role <user>')
    .description("Change a member's role (user id or email); owners only, and the last owner stays one")
    .option('--role <role>', ROLES.join(' or '))
    .action(
      act(deps, async (s, who: string, opts: { role?: string }) => {
        const r = role(await s.need(opts.role, '--role', 'Role (owner or member)'));
        const { client, api, members: list } = await membersOf(s);
        const m = find(list, who);
        const { member } = await api.calls.memberRole({ client: client.stamp, user: m.user.stamp, role: r });
        s.out.done(member, TEAM_MESSAGES.roleChanged(member.user.email, member.role));
      }),
    );

  members
    .command('remove <user>')
    .description('Remove a member (user id or email): they lose access at once; owners only')
    .option('--yes', 'do not ask for confirmation')
    .action(
      act(deps, async (s, who: string, opts: { yes?: boolean }) => {
        const { client, api, members: list } = await membersOf(s);
        const m = find(list, who);
        await confirm(s, TEAM_MESSAGES.confirmRemove(m.user.email), opts.yes);
        await api.calls.memberRemove({ client: client.stamp, user: m.user.stamp });
        s.out.done({ ok: true }, TEAM_MESSAGES.removed(m.user.email));
      }),
    );

  members
    .command('leave')
    .description('Leave the account (the last owner cannot)')
    .option('--yes', 'do not ask for confirmation')
    .action(
      act(deps, async (s, opts: { yes?: boolean }) => {
        const { client, api, me } = await membersOf(s);
        await confirm(s, TEAM_MESSAGES.confirmLeave(client.name), opts.yes);
        await api.calls.memberRemove({ client: client.stamp, user: me });
        s.out.done({ ok: true }, TEAM_MESSAGES.left);
      }),
    );
}
