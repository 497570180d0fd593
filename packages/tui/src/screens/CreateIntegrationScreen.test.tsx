import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('CreateIntegrationScreen', { timeout: 30_000 }, () => {
  it('checks the title and token, then creates and returns to the list', async () => {
    const ui = renderUi(server, '/client/cli000001/create-integration');
    await ui.see('Service');
    await ui.type(KEY.tab, KEY.tab, KEY.tab, KEY.enter);
    let frame = await ui.see(MESSAGES.titleCreate);
    expect(frame).toContain(MESSAGES.integrationToken);
    await ui.type(KEY.shiftTab, KEY.shiftTab, KEY.shiftTab, 'OpenAI prod', KEY.tab, KEY.enter, 'sk-secret-1234', KEY.enter);
    frame = await ui.see('Integration OpenAI prod created.');
    await ui.see('OpenAI prod');
    expect(server.state.integrations[0]).toMatchObject({ name: 'OpenAI prod', service: 'OpenAI' });
    ui.unmount();
  });
});
