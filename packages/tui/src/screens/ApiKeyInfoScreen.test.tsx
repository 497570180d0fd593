import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, installCommand, pythonExample } from '@portal/core';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => {
  server = await startFakeApi();
  server.state.keys.push({ clue: 'key000001', name: 'CI', token: 'tok_secret', installs: 2, installedAt: 1_700_000_000, active: 1, createdAt: 1_700_000_000, pack: { linux64: 'portal_client.whl' }, client: 'cli000001' });
});
afterEach(() => server.close());

describe('ApiKeyInfoScreen', { timeout: 30_000 }, () => {
  it('shows installer, token and example; copies each and the label resets after a second', async () => {
    const ui = renderUi(server, '/client/cli000001/apikey/key000001/info');
    // The same installer and example as the web portal's key page (core builds both).
    const install = installCommand(server.url, 'portal_client.whl');
    const frame = await ui.see(install);
    expect(install).toBe(`pip install "${server.url}/api/pack/portal_client.whl"`);
    expect(frame).toContain('tok_secret');
    expect(frame).toContain('ID: key000001 · Installs: 2 · Last installed:');
    expect(frame).toContain('from portal_client import Client');
    expect(frame).toContain('client="cli000001"');
    await ui.type('t');
    await ui.see('Token [Copied]');
    expect(ui.copied).toEqual(['tok_secret']);
    await ui.type('c');
    await ui.see('Installer (Linux 64-bit) [Copied]');
    expect(ui.copied[1]).toBe(install);
    await ui.see('[c Copy]', 2500);
    await ui.type('e');
    await ui.see('Python example [Copied]');
    expect(ui.copied[2]).toBe(pythonExample(server.url, 'tok_secret', 'cli000001'));
    ui.unmount();
  });

  it('an unknown key shows the empty text', async () => {
    const ui = renderUi(server, '/client/cli000001/apikey/nope/info');
    await ui.see(MESSAGES.notFound);
    ui.unmount();
  });
});
