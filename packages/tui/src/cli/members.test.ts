import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, TEAM_MESSAGES } from '@portal/core';
import { addMember, invitationToken, rows, userStamp, withTestApi } from '@portal/testkit/api';
import { portal, signedIn } from '../../test/cli';
import type { memoryStore } from '../store';

let store: ReturnType<typeof memoryStore>;
const server = withTestApi({ worker: false });
beforeEach(async () => {
  store = signedIn(server);
});

describe('portal members, invites and audit', { timeout: 60_000 }, () => {
  it('an owner invites by mail; the invitee accepts the link; roles change; removal; the audit log shows it all', async () => {
    const bob = await server.newUser({ label: 'bob' });
    const bobStore = signedIn(server, bob);
    const bad = await portal(['members', 'invite', '--email', 'nope'], { store });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(MESSAGES.email);
    expect((await portal(['members', 'invite', '--email', bob.email, '--role', 'boss'], { store })).code).toBe(2);

    const inv = await portal(['members', 'invite', '--email', bob.email, '--json'], { store });
    expect(inv.code).toBe(0);
    expect(JSON.parse(inv.stdout)).toMatchObject({ email: bob.email, role: 'member' });
    const pending = JSON.parse((await portal(['invites', 'list', '--json'], { store })).stdout);
    expect(pending.map((i: { email: string }) => i.email)).toEqual([bob.email]);

    const token = await invitationToken(server, bob.email);
    const accepted = await portal(
      ['invites', 'accept', `${server.url}/invite?token=${encodeURIComponent(token)}`, '--client', bob.client],
      {
        store: bobStore,
      },
    );
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain(TEAM_MESSAGES.joined(server.user.name));
    const used = await portal(['invites', 'accept', token], { store: bobStore });
    expect(used.code).toBe(1);
    expect(used.stderr).toContain(TEAM_MESSAGES.inviteUsed);

    const list = await portal(['members', 'list'], { store });
    expect(list.stdout).toMatch(new RegExp(`${server.user.email}\\t${server.user.username}\\towner`));
    expect(list.stdout).toMatch(new RegExp(`${bob.email}\\t${bob.username}\\tmember`));

    const demote = await portal(['members', 'role', server.user.email, '--role', 'member'], { store });
    expect(demote.code).toBe(1);
    expect(demote.stderr).toContain(TEAM_MESSAGES.lastOwnerDemote);
    const promote = await portal(['members', 'role', bob.email, '--role', 'owner', '--json'], { store });
    expect(JSON.parse(promote.stdout)).toMatchObject({ role: 'owner' });

    expect((await portal(['members', 'remove', bob.email], { store })).code).toBe(2);
    const removed = await portal(['members', 'remove', bob.email, '--yes'], { store });
    expect(removed.code).toBe(0);
    expect(removed.stderr).toContain(TEAM_MESSAGES.removed(bob.email));
    expect((await portal(['members', 'list', '--client', server.user.client], { store: bobStore })).code).toBe(1);

    const audit = JSON.parse((await portal(['audit', '--json'], { store })).stdout);
    expect(audit.map((e: { action: string }) => e.action).slice(0, 4)).toEqual([
      'member.remove',
      'member.role',
      'member.join',
      'member.invite',
    ]);
    const two = JSON.parse((await portal(['audit', '--limit', '2', '--json'], { store })).stdout);
    expect(two).toHaveLength(2);
    const text = await portal(['audit', '--action', 'member.role'], { store });
    expect(text.stdout).toContain('Changed a role');
    expect(text.stdout).not.toContain('Removed a member');
  });

  it('the last owner cannot leave; a member leaves; invitations are withdrawn', async () => {
    const owner = await server.newUser({ label: 'own' });
    await addMember(server, owner.client, server.user);
    const ownerStore = signedIn(server, owner);
    const last = await portal(['members', 'leave', '--yes'], { store: ownerStore });
    expect(last.code).toBe(1);
    expect(last.stderr).toContain(TEAM_MESSAGES.lastOwnerLeave);

    const inv = JSON.parse((await portal(['members', 'invite', '--email', 'later@example.com', '--json'], { store: ownerStore })).stdout);
    const denied = await portal(['invites', 'withdraw', inv.stamp, '--client', owner.client], { store });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain(TEAM_MESSAGES.ownersOnly);
    expect((await portal(['invites', 'withdraw', inv.stamp], { store: ownerStore })).code).toBe(0);
    expect((await portal(['invites', 'list'], { store: ownerStore })).stderr.trim()).toBe(TEAM_MESSAGES.noInvites);

    const auditDenied = await portal(['audit', '--client', owner.client], { store });
    expect(auditDenied.code).toBe(1);
    expect(auditDenied.stderr).toContain(TEAM_MESSAGES.auditOwnersOnly);

    const left = await portal(['members', 'leave', '--yes', '--client', owner.client], { store });
    expect(left.code).toBe(0);
    const remaining = await rows(server).selectFrom('permissions').select('user_stamp').where('client_stamp', '=', owner.client).execute();
    expect(remaining.map((r) => r.user_stamp)).toEqual([await userStamp(server, owner)]);
  });
});
