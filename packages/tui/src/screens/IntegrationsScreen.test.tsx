import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => {
  server = await startFakeApi();
  server.state.integrations.push({ clue: 'int000001', name: 'OpenAI prod', service: 'OpenAI', token: 'sk-•••abcd', runs: 3, runAt: null, active: 1, createdAt: 1_700_000_000, client: 'cli000001' });
});
afterEach(() => server.close());

describe('IntegrationsScreen', { timeout: 30_000 }, () => {
  it('lists keys masked, renames, removes and opens the create screen', async () => {
    const ui = renderUi(server, '/client/cli000001/integrations');
    const frame = await ui.see('OpenAI prod');
    expect(frame).toMatch(/OpenAI prod\s+int000001\s+OpenAI\s+sk-•••abcd\s+3/);
    await ui.type('r', ' v2', KEY.enter);
    await ui.gone('New name:');
    await ui.see('OpenAI prod v2');
    await ui.type('d', 'y');
    await ui.see(MESSAGES.integrationNotFound);
    await ui.type('n');
    await ui.see('Create Integration');
    ui.unmount();
  });
});
