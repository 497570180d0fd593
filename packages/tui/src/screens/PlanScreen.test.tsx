import { describe, expect, it } from 'vitest';
import { setPlan, withTestApi } from '@portal/testkit/api';
import { renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('PlanScreen', { timeout: 30_000 }, () => {
  it('compares the plans, marks the current one and offers the upgrade on Individual', async () => {
    // A new account starts on Individual.
    const ui = renderUi(server, '/plan');
    const frame = await ui.see('Current plan');
    expect(frame).toContain('Individual (In Beta) ✔ Current plan');
    expect(frame).toMatch(/Max file size\s+1 MB\s+Unlimited/);
    expect(frame).toContain('Analytical Engines is on the Individual plan.');
    expect(frame).toContain('Enterprise limits are initial limits');
    expect(frame).toContain('[ Upgrade to Enterprise ]');
    await ui.type('u');
    await ui.see('Upgrade to Enterprise: contact us at');
    ui.unmount();
  });

  it('no upgrade on Enterprise', async () => {
    await setPlan(server, server.user.client, 'Enterprise');
    const ui = renderUi(server, '/plan');
    const frame = await ui.see('Current plan');
    expect(frame).toContain('Enterprise ✔ Current plan');
    expect(frame).not.toContain('[ Upgrade to Enterprise ]');
    // Nothing offers it: not the key help line, not the u key.
    expect(frame).not.toMatch(/u upgrade/i);
    await ui.type('u');
    await ui.type('?');
    expect(ui.lastFrame()).not.toContain('Upgrade to');
    ui.unmount();
  });
});
