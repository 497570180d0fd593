import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('AccountScreen', { timeout: 30_000 }, () => {
  it('lists the accounts; Open goes to projects (Cloud) or API keys (Premise)', async () => {
    server.state.clients.push({ stamp: 'cli000002', name: 'On Premise Co', plan: 'Enterprise', choice: 'Premise', active: 1 });
    server.state.users[0].clients.push('cli000002');
    const ui = renderUi(server, '/account');
    const frame = await ui.see('On Premise Co');
    expect(frame).toMatch(/Analytical Engines\s+Individual\s+On/);
    await ui.type(KEY.enter);
    await ui.see('Projects');
    expect(ui.remembered.client).toBe('cli000001');
    await ui.type(KEY.esc, KEY.down, KEY.enter);
    const keys = await ui.see('No API Keys Found');
    // Premise: the menu has no Projects entry.
    expect(keys).toMatch(/│ API Keys │ │ Integrations │/);
    expect(keys).not.toMatch(/│ Projects │/);
    ui.unmount();
  });

  it('filters with /', async () => {
    server.state.clients.push({ stamp: 'cli000002', name: 'Second Co', plan: 'Enterprise', choice: 'Cloud', active: 1 });
    server.state.users[0].clients.push('cli000002');
    const ui = renderUi(server, '/account');
    await ui.see('Second Co');
    await ui.type('/', 'seco');
    const frame = await ui.see('Filter: seco');
    expect(frame).not.toContain('Analytical Engines');
    ui.unmount();
  });
});
