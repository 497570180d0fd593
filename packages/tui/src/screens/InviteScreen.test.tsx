import { describe, it } from 'vitest';
import { TEAM_MESSAGES } from '@portal/core';
import { invitationToken, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../testing/ui';

const server = withTestApi({ worker: false });

describe('InviteScreen', { timeout: 30_000 }, () => {
  it('Enter accepts the invitation and opens the members of the client joined; a spent link gives the sentence', async () => {
    const owner = await server.newUser({ label: 'own' });
    const r = await fetch(`${server.url}/api/client/member/invite`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client: owner.client, email: server.user.email, role: 'member' }),
    });
    if (r.status !== 200) throw new Error(`invite: ${r.status}`);
    const token = await invitationToken(server, server.user.email);
    const path = `/invite?token=${encodeURIComponent(token)}`;
    let ui = renderUi(server, path);
    await ui.see('Press Enter to accept.');
    await ui.type(KEY.enter);
    await ui.see('Pending invitations');
    await ui.see(owner.email);
    ui.unmount();

    ui = renderUi(server, path);
    await ui.see('Press Enter to accept.');
    await ui.type(KEY.enter);
    await ui.see(TEAM_MESSAGES.inviteUsed);
    ui.unmount();
  });

  it('signed out, it says to sign in first', async () => {
    const ui = renderUi(server, '/invite?token=t', { signedIn: false });
    await ui.see('Sign in first (portal login), then open the invitation again.');
    ui.unmount();
  });
});
