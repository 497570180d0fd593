// `portal invites`: pending invitations of the account (list, withdraw) and accepting one from its link's token.
import type { Command } from 'commander';
import { TEAM_MESSAGES } from '@portal/core';
import type { Deps } from './context';
import { act, examples, time } from './common';

/** The token alone, or the whole link from the mail (`.../invite?token=...`). */
export function tokenOf(value: string): string {
  try {
    return new URL(value).searchParams.get('token') ?? value;
  } catch {
    return value;
  }
}

export function register(program: Command, deps: Deps): void {
  const invites = program
    .command('invites')
    .description('Invitations: pending ones of the account (owners withdraw them), and accepting yours')
    .addHelpText('after', examples('portal invites list', 'portal invites withdraw <id>', 'portal invites accept "$TOKEN_OR_LINK"'));

  invites
    .command('list')
    .description('List pending invitations: email, role, sent, expires')
    .action(
      act(deps, async (s) => {
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
      }),
    );

  invites
    .command('withdraw <id>')
    .description('Withdraw a pending invitation: its link stops working; owners only')
    .action(
      act(deps, async (s, id: string) => {
        const api = await s.api();
        await api.calls.inviteRemove({ invite: id });
        s.out.done({ ok: true }, TEAM_MESSAGES.withdrawn);
      }),
    );

  invites
    .command('accept <token>')
    .description('Accept an invitation sent to your email address (the token or the whole link)')
    .action(
      act(deps, async (s, token: string) => {
        const api = await s.api();
        const res = await api.calls.inviteAccept({ token: tokenOf(token.trim()) });
        s.out.done(res, `${TEAM_MESSAGES.joined(res.client.name)} (${res.client.stamp}, as ${res.member.role})`);
      }),
    );
}
