import { describe, expect, it } from 'vitest';
import { CALLS } from '@portal/core/contract/table';
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

  it('shows the security events, newest first, as sentences that fit 80x24', async () => {
    const changed = await fetch(new URL(CALLS.passwordChange.path, server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ current: server.user.password, password: 'An0ther-secret!' }),
    });
    expect(changed.status).toBe(200);
    const ui = renderUi(server, '/account', { size: { columns: 80, rows: 24 } });
    await ui.see('Analytical Engines');
    await ui.type('8');
    expect(await ui.see('Changed the password')).toContain('Security events');
    // eslint-disable-next-line no-control-regex
    const lines = (ui.lastFrame() ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    ui.unmount();
  });
});
