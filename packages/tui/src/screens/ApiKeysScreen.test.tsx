import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('ApiKeysScreen', { timeout: 30_000 }, () => {
  it('creates a key only while the list is empty, renames, removes after confirming', async () => {
    const ui = renderUi(server, '/client/cli000001/apikeys');
    await ui.see(MESSAGES.noApiKeys);
    await ui.type('n', 'x'.repeat(61), KEY.enter);
    await ui.see(MESSAGES.titleCreate);
    await ui.type(KEY.esc, 'n', 'CI key', KEY.enter);
    let frame = await ui.see(/CI key\s+key\w+\s+0/);
    await ui.type('n');
    frame = await ui.see('CI key');
    expect(frame).not.toContain('Name:');
    await ui.type('r', ...Array(6).fill('\u007F'), 'Prod', KEY.enter);
    await ui.see(/Prod\s+key/);
    expect(server.state.keys[0].name).toBe('Prod');
    await ui.type('d');
    await ui.see('Remove Prod? (y/n)');
    await ui.type('n');
    expect(server.state.keys[0].active).toBe(1);
    await ui.type('d', 'y');
    await ui.see(MESSAGES.noApiKeys);
    expect(server.state.keys[0].active).toBe(0);
    ui.unmount();
  });

  it('a failing rename shows SPEC message', async () => {
    server.state.failing.apikeyRename = 500;
    const ui = renderUi(server, '/client/cli000001/apikeys');
    await ui.see(MESSAGES.noApiKeys);
    await ui.type('n', 'CI', KEY.enter);
    await ui.see(/CI\s+key/);
    await ui.type('r', 'x', KEY.enter);
    await ui.see(MESSAGES.renameApiKey);
    ui.unmount();
  });

  it('Enter opens the key details', async () => {
    const ui = renderUi(server, '/client/cli000001/apikeys');
    await ui.see(MESSAGES.noApiKeys);
    await ui.type('n', 'CI', KEY.enter);
    await ui.see(/CI\s+key/);
    await ui.type(KEY.enter);
    await ui.see('Installer (Linux 64-bit)');
    ui.unmount();
  });
});
