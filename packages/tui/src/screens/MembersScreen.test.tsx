import { describe, expect, it } from 'vitest';
import { TEAM_MESSAGES } from '@portal/core';
import { addMember, rows, userStamp, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

const roles = async (client: string) =>
  (
    await rows(server)
      .selectFrom('permissions as p')
      .innerJoin('users as u', 'u.stamp', 'p.user_stamp')
      .select(['u.email', 'p.role'])
      .where('p.client_stamp', '=', client)
      .orderBy('p.created_at')
      .execute()
  ).map((r) => `${r.email}:${r.role}`);

describe('MembersScreen', { timeout: 30_000 }, () => {
  it('an owner invites, sees the pending invitation, makes a member owner and back, removes after confirming', async () => {
    const bob = await server.newUser({ label: 'bob' });
    await addMember(server, server.user.client, bob);
    const ui = renderUi(server, `/client/${server.user.client}/members`);
    await ui.see(bob.email);
    await ui.see(TEAM_MESSAGES.noInvites);
    await ui.type('n', 'nope', KEY.enter);
    await ui.see('Invalid email address.');
    await ui.type(KEY.esc, 'n', 'carol@example.com', KEY.enter);
    await ui.see(/carol@example\.com\s+member/);
    // Bob is the second row.
    await ui.type(KEY.down, 'o');
    await ui.see(new RegExp(`${bob.email.replace(/[.]/g, '\\.')}\\s+\\S+\\s+owner`));
    expect(await roles(server.user.client)).toEqual([`${server.user.email}:owner`, `${bob.email}:owner`]);
    await ui.type('m');
    await ui.see(new RegExp(`${bob.email.replace(/[.]/g, '\\.')}\\s+\\S+\\s+member`));
    await ui.type('d');
    await ui.see(`Remove ${bob.email}? (y/n)`);
    await ui.type('y');
    await ui.see(TEAM_MESSAGES.removed(bob.email));
    expect(await roles(server.user.client)).toEqual([`${server.user.email}:owner`]);
    ui.unmount();
  });

  it('a member cannot manage; leaving asks first and then leaves the client', async () => {
    const owner = await server.newUser({ label: 'own' });
    await addMember(server, owner.client, server.user);
    const ui = renderUi(server, `/client/${owner.client}/members`);
    await ui.see(owner.email);
    await ui.type('l');
    await ui.see(TEAM_MESSAGES.confirmLeave(owner.name));
    await ui.type('y');
    await ui.see('My Account');
    expect(await roles(owner.client)).toEqual([`${owner.email}:owner`]);
    expect(await userStamp(server, owner)).toBeTruthy();
    ui.unmount();
  });
});
