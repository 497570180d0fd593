import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedProject, seedQuote, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi, type UiRun } from '../../test/ui';

const server = withTestApi({ worker: false });

/** The account's payment portal link (signed, so not known in advance): the server's pay page for this account. */
const portalLink = () => new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/pay/${server.user.client}\\?exp=\\d+&sig=\\S+$`);

/** The portal link as shown: it wraps at the test terminal's width, so it is read from the screen's column (right of the menu), without whitespace. */
async function shownPortal(ui: UiRun): Promise<string> {
  await ui.see('Payment portal:');
  const column = (ui.lastFrame() ?? '')
    .split('\n')
    .map((line) => line.split('│').pop() ?? '')
    .join('');
  const m = /Paymentportal:(\S+?)\(pcopy\)/.exec(column.replace(/\s+/g, ''));
  if (!m) throw new Error(`No payment portal link in:\n${ui.lastFrame()}`);
  return m[1];
}

describe('QuoteDetailsScreen', { timeout: 30_000 }, () => {
  it('shows the invoice, the payment portal and opens the processed request', async () => {
    const { project, upload, run } = await seedProject(server);
    const quote = await seedQuote(server, project.stamp, upload.stamp, {
      name: 'Shrink one',
      desc: 'first',
      state: 'Paid',
      cent: 44,
      run: run.stamp,
      invoiceNum: 'INV-7',
    });
    // Half a million of five million free input parameters spent, and $12.34 still owed on another, unpaid quote.
    await setRow(server, 'clients', server.user.client, { credit_total: 5_000_000, credit_used: 500_000 });
    await seedQuote(server, project.stamp, upload.stamp, { name: 'Owed', cent: 1234 });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/quote/${quote.stamp}/details`);
    const portal = await shownPortal(ui);
    expect(portal).toMatch(portalLink());
    const frame = await ui.see('Outstanding balance');
    expect(frame).toMatch(/Invoice amount:\s+\$0\.44/);
    expect(frame).toMatch(/Invoice ID:\s+INV-7/);
    expect(frame).toMatch(/Description:\s+first/);
    expect(frame).toContain('[ First fit ] press Enter to open');
    expect(frame).toMatch(/Status: Finished/);
    expect(frame).toContain('Free credits: 500,000 of 5,000,000 input parameters used');
    expect(frame).toContain('Outstanding balance: $12.34');
    // The quote is paid in the payment portal, in a browser: p copies its link (OSC 52 in a real terminal).
    await ui.type('p');
    await ui.see(`Copied: the payment portal link (${portal})`);
    expect(ui.copied).toEqual([portal]);
    // The copied link opens the account's invoices on the server's payment page.
    const page = await fetch(portal);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('INV-7');
    await ui.type(KEY.enter);
    await ui.see(/First fit .*Function:\s+generate/);
    ui.unmount();
  });

  it('an unpaid quote says its request waits for payment; a removed upload and a message show in red with Contact Support', async () => {
    const { project } = await seedProject(server);
    const quote = await seedQuote(server, project.stamp, null, {
      name: 'Shrink two',
      state: 'Unpaid',
      message: 'Model too large.',
      cent: 22,
      invoiceNum: 'INV-8',
    });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/quote/${quote.stamp}/details`);
    const frame = await ui.see('The request starts once the invoice is paid.');
    expect(frame).toMatch(/Status:\s+Unpaid/);
    expect(frame).toContain(MESSAGES.uploadDataNotFound);
    expect(frame).toContain('Model too large. · Contact Support');
    expect(await shownPortal(ui)).toMatch(portalLink());
    ui.unmount();
  });

  it('an unknown quote shows SPEC text', async () => {
    const { project } = await seedProject(server);
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/quote/nope/details`);
    await ui.see(MESSAGES.requestNotFound);
    ui.unmount();
  });
});
