import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedProject, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('QuoteDetailsScreen', { timeout: 30_000 }, () => {
  it('shows the invoice, the payment portal and opens the processed request', async () => {
    const { bucket, rend, run } = seedProject(server.state);
    server.state.quotes.push({ stamp: 'quo000001', name: 'Shrink one', desc: 'first', function: 'shrink', state: 'Paid', message: '', cent: 44, invoiceNum: 'INV-7', createdAt: 1_700_000_000, rend: { stamp: rend.stamp, name: rend.name }, bucket: bucket.stamp, run: run.stamp });
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/quote/quo000001/details`);
    const frame = await ui.see('http://pay.example/portal');
    expect(frame).toMatch(/Invoice amount:\s+\$0\.44/);
    expect(frame).toMatch(/Invoice ID:\s+INV-7/);
    expect(frame).toContain('Request: First fit · Finished');
    await ui.type(KEY.enter);
    await ui.see('Request Details');
    ui.unmount();
  });

  it('an unknown quote shows SPEC text', async () => {
    const { bucket } = seedProject(server.state);
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/quote/nope/details`);
    await ui.see(MESSAGES.requestNotFound);
    ui.unmount();
  });
});
