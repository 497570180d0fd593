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
    const frame = await ui.see('Payment portal: http://pay.example/portal');
    expect(frame).toMatch(/Invoice amount:\s+\$0\.44/);
    expect(frame).toMatch(/Invoice ID:\s+INV-7/);
    expect(frame).toMatch(/Description:\s+first/);
    expect(frame).toContain('[ First fit ] press Enter to open');
    expect(frame).toMatch(/Status: Finished/);
    expect(frame).toContain('Free credits: 500,000 of 5,000,000 input parameters used');
    expect(frame).toContain('Outstanding balance: $12.34');
    // The quote is paid in the payment portal, in a browser: p copies its link (OSC 52 in a real terminal).
    await ui.type('p');
    await ui.see('Copied http://pay.example/portal');
    expect(ui.copied).toEqual(['http://pay.example/portal']);
    await ui.type(KEY.enter);
    await ui.see(/First fit .*Function:\s+generate/);
    ui.unmount();
  });

  it('an unpaid quote says its request waits for payment; a removed upload and a message show in red with Contact Support', async () => {
    const { bucket } = seedProject(server.state);
    server.state.quotes.push({ stamp: 'quo000002', name: 'Shrink two', desc: '', function: 'shrink', state: 'Unpaid', message: 'Model too large.', cent: 22, invoiceNum: 'INV-8', createdAt: 1_700_000_000, rend: null, bucket: bucket.stamp, run: null });
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/quote/quo000002/details`);
    const frame = await ui.see('The request starts once the invoice is paid.');
    expect(frame).toMatch(/Status:\s+Unpaid/);
    expect(frame).toContain(MESSAGES.rendNotFound);
    expect(frame).toContain('Model too large. · Contact Support');
    await ui.see('Payment portal: http://pay.example/portal');
    ui.unmount();
  });

  it('an unknown quote shows SPEC text', async () => {
    const { bucket } = seedProject(server.state);
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/quote/nope/details`);
    await ui.see(MESSAGES.requestNotFound);
    ui.unmount();
  });
});
