import { describe, it } from 'vitest';
import { TEAM_MESSAGES } from '@portal/core';
import { addMember, withTestApi } from '@portal/testkit/api';
import { renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

const createKey = (name: string) =>
  fetch(`${server.url}/api/client/apikey/item`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${server.user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ client: server.user.client, name }),
  });

describe('AuditScreen', { timeout: 30_000 }, () => {
  it('shows the log newest first, steps through the action filter', async () => {
    await createKey('Deploy key');
    const ui = renderUi(server, `/client/${server.user.client}/audit`);
    await ui.see('Created an API key');
    await ui.see('Deploy key');
    await ui.see('Joined');
    await ui.see('Page 1');
    // The first filter after "all" is invitations, of which there are none here (sign-ins are never in the log).
    await ui.type('a');
    await ui.see('Action: Invited a member');
    await ui.see(TEAM_MESSAGES.noAudit);
    ui.unmount();
  });

  it("a member sees the server's sentence: owners only", async () => {
    const owner = await server.newUser({ label: 'own' });
    await addMember(server, owner.client, server.user);
    const ui = renderUi(server, `/client/${owner.client}/audit`);
    await ui.see(TEAM_MESSAGES.auditOwnersOnly);
    ui.unmount();
  });
});
