import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, installCommand, maskToken, pythonExample, type ClientApiKey } from '@portal/core';
import { T0, withTestApi } from '@portal/testkit/api';
import { seedApiKey } from '@portal/testkit/seed';
import { renderUi } from '../../test/ui';

/** The screen's text beside the menu, its lines joined and spaces dropped: the installer is wider than the test terminal and wraps. */
const content = (frame: string) =>
  frame
    .split('\n')
    .map((l) => l.replace(/^[│╭╰][^│╮╯]*[│╮╯]/, ''))
    .join('')
    .replace(/\s+/g, '');

let key: ClientApiKey;
const server = withTestApi({ worker: false });
beforeEach(async () => {
  key = await seedApiKey(server, { name: 'CI', installs: 2, installedAt: T0 });
});

describe('ApiKeyInfoScreen', { timeout: 30_000 }, () => {
  it('shows installer, token and example; copies each and the label resets after a second', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/apikey/${key.clue}/info`);
    // The same installer and example as the web portal's key page (core builds both).
    const install = installCommand(server.url, key.pack.linux64);
    const frame = await ui.see(`ID: ${key.clue} · Installs: 2 · Last installed:`);
    expect(install).toBe(`pip install "${server.url}/api/pack/${key.pack.linux64}"`);
    expect(content(ui.lastFrame() ?? '')).toContain(install.replace(/\s+/g, ''));
    // The token is masked (in the example too) until v reveals it; the copy keys copy it whole either way.
    expect(frame).not.toContain(key.token);
    expect(frame).toContain(maskToken(key.token));
    expect(frame).toContain('v reveals it');
    expect(frame).toContain('from portal_client import Client');
    expect(frame).toContain(`client="${server.user.client}"`);
    await ui.type('t');
    await ui.see('Token [Copied]');
    expect(ui.copied).toEqual([key.token]);
    await ui.type('c');
    await ui.see('Installer (Linux 64-bit) [Copied]');
    expect(ui.copied[1]).toBe(install);
    await ui.see('[c Copy]', 2500);
    await ui.type('e');
    await ui.see('Python example [Copied]');
    expect(ui.copied[2]).toBe(pythonExample(server.url, key.token, server.user.client));
    await ui.type('v');
    expect(await ui.see('v hides it')).toContain(key.token);
    await ui.type('v');
    expect(await ui.see('v reveals it')).not.toContain(key.token);
    ui.unmount();
  });

  it('an unknown key shows the empty text', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/apikey/nope/info`);
    await ui.see(MESSAGES.notFound);
    ui.unmount();
  });
});
