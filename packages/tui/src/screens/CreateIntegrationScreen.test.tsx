import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('CreateIntegrationScreen', { timeout: 30_000 }, () => {
  it('checks the title and token, then creates and returns to the list', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/create-integration`);
    await ui.see('Service');
    await ui.type(KEY.tab, KEY.tab, KEY.tab, KEY.enter);
    let frame = await ui.see(MESSAGES.titleCreate);
    expect(frame).toContain(MESSAGES.integrationToken);
    expect(server.calls).not.toContain('integrationCreate');
    await ui.type(KEY.shiftTab, KEY.shiftTab, KEY.shiftTab, 'OpenAI prod', KEY.tab, KEY.enter, 'sk-secret-1234', KEY.enter);
    frame = await ui.see('Integration OpenAI prod created.');
    await ui.see('OpenAI prod');
    // The list shows the token masked; the server keeps it (encrypted) for the requests that use it.
    await ui.see(/OpenAI prod\s+i_\S+\s+OpenAI\s+sk-•+1234/);
    const made = await rows(server).selectFrom('integrations').selectAll().where('client', '=', server.user.client).execute();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ name: 'OpenAI prod', service: 'OpenAI', active: 1 });
    expect(made[0].token_enc).not.toContain('sk-secret-1234');
    expect(server.server.built.services.secrets.decrypt(made[0].token_enc)).toBe('sk-secret-1234');
    ui.unmount();
  });
});
