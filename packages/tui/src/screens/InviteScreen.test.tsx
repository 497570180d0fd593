import { describe, it } from 'vitest';
import { TEAM_MESSAGES } from '@portal/core';
import { invitationToken, invite, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('InviteScreen', { timeout: 30_000 }, () => {
  it('Enter accepts the invitation and opens the members of the client joined; a spent link gives the sentence', async () => {
    const owner = await server.newUser({ label: 'own' });
    await invite(server, owner, server.user.email);
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
