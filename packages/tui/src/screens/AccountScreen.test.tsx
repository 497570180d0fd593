import { describe, expect, it } from 'vitest';
import { addAccount, withTestApi } from '@portal/testkit/api';
import { setChoice } from '@portal/testkit/seed';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('AccountScreen', { timeout: 30_000 }, () => {
  it('lists the accounts; Open goes to projects (Cloud) or API keys (Premise)', async () => {
    await addAccount(server, server.user, 'On Premise Co', 'Enterprise');
    const ui = renderUi(server, '/account');
    const frame = await ui.see('On Premise Co');
    expect(frame).toMatch(/Analytical Engines\s+Individual\s+On/);
    await ui.type(KEY.enter);
    await ui.see('Projects');
    expect(ui.remembered.client).toBe(server.user.client);
    await ui.type(KEY.esc);
    // Back on the list (its keys taken once it is drawn) before moving in it.
    await ui.see('On Premise Co');
    await ui.type(KEY.down, KEY.enter);
    const keys = await ui.see('No API Keys Found');
    // Premise: the menu has no Projects entry.
    expect(keys).toMatch(/│ API Keys │ │ Integrations │/);
    expect(keys).not.toMatch(/│ Projects │/);
    ui.unmount();
  });

  it('filters with /', async () => {
    const second = await addAccount(server, server.user, 'Second Co', 'Enterprise');
    await setChoice(server, second.stamp, 'Cloud');
    const ui = renderUi(server, '/account');
    await ui.see('Second Co');
    await ui.type('/', 'seco');
    const frame = await ui.see('Filter: seco');
    expect(frame).not.toContain('Analytical Engines');
    ui.unmount();
  });
});
