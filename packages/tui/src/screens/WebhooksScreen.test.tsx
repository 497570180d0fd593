import { describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES } from '@portal/core';
import { addMember, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi, type UiRun } from '../../test/ui';

// No worker: deliveries stay pending, so what the screen shows does not race a send.
const server = withTestApi({ worker: false });

/** The whole frame fits the terminal: no line wider, no more lines. */
function fits(ui: UiRun, size: { columns: number; rows: number }) {
  const lines = ui.lastFrame()!.split('\n');
  expect(lines.length).toBeLessThanOrEqual(size.rows);
  expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(size.columns);
}

describe('WebhooksScreen', { timeout: 60_000 }, () => {
  it('an owner adds an endpoint in 80x24, copies its secret once, tests, pauses, reads its log, renames and removes it', async () => {
    const size = { columns: 80, rows: 24 };
    const ui = renderUi(server, `/client/${server.user.client}/webhooks`, { size });
    await ui.see(WEBHOOK_MESSAGES.noEndpoints);
    await ui.type('n');
    await ui.see('Add endpoint');
    fits(ui, size);
    // Nothing ticked: core's sentence, and nothing is sent.
    await ui.type(KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.enter);
    await ui.see(WEBHOOK_MESSAGES.events);
    await ui.type(
      KEY.shiftTab,
      KEY.shiftTab,
      KEY.shiftTab,
      KEY.shiftTab,
      KEY.shiftTab,
      KEY.shiftTab,
      KEY.shiftTab,
      KEY.shiftTab,
      KEY.shiftTab,
    );
    await ui.type(...'example.com/hooks'.split(''), KEY.tab, ...'Billing service'.split(''), KEY.tab, KEY.space, KEY.tab, KEY.space);
    await ui.type(KEY.enter);
    await ui.see('Signing secret of Billing service');
    const frame = await ui.see(/whsec_[A-Za-z0-9+/=]{20,}/);
    fits(ui, size);
    expect(frame).toMatch(/Billing service\s+https:\/\/example\.com\/hooks\s+Active\s+Never/);
    await ui.type('c');
    expect(ui.copied).toEqual([expect.stringMatching(/^whsec_/)]);
    await ui.type('x');
    await ui.gone('Signing secret of');

    await ui.type('t');
    await ui.see(WEBHOOK_MESSAGES.testSent);
    await ui.type('p');
    await ui.see(/Billing service\s+\S+\s+Paused/);
    await ui.type('p');
    await ui.see(/Billing service\s+\S+\s+Active/);

    await ui.type(KEY.enter);
    await ui.see('Deliveries of Billing service');
    await ui.see(/webhook\.test\s+.*Pending/);
    fits(ui, size);
    // Esc clears the log's filter first, then closes the log (back to the endpoints, still on this screen).
    await ui.type('/', ...'zzz'.split(''), KEY.enter);
    await ui.gone('webhook.test');
    await ui.type(KEY.esc);
    await ui.see(/webhook\.test\s+.*Pending/);
    await ui.type(KEY.esc);
    await ui.gone('Deliveries of Billing service');
    await ui.see(/Billing service\s+\S+\s+Active/);
    await ui.type(KEY.enter);
    await ui.see(/webhook\.test\s+.*Pending/);
    await ui.type(KEY.enter);
    await ui.see('Attempts of');
    await ui.see('No attempt yet');
    fits(ui, size);
    await ui.type(KEY.esc);
    await ui.see(/Billing service\s+\S+\s+Active/);

    await ui.type('k');
    await ui.see('New signing secret of Billing service');
    await ui.see(WEBHOOK_MESSAGES.rotated);

    await ui.type('r', ...' v2'.split(''), KEY.enter);
    await ui.see('Endpoint renamed to "Billing service v2".');
    await ui.type('d');
    await ui.see('Remove Billing service v2? (y/n)');
    await ui.type('y');
    await ui.see(WEBHOOK_MESSAGES.removed);
    await ui.see(WEBHOOK_MESSAGES.noEndpoints);
    ui.unmount();
  });

  it('a member of the client reads why they cannot manage its webhooks', async () => {
    const owner = await server.newUser({ label: 'whown' });
    await addMember(server, owner.client, server.user);
    const ui = renderUi(server, `/client/${owner.client}/webhooks`);
    await ui.see(WEBHOOK_MESSAGES.ownersOnly);
    ui.unmount();
  });
});
