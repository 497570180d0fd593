import { describe, expect, it } from 'vitest';
import { seedProject, seedQuote, seedRun, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('UsageScreen', { timeout: 30_000 }, () => {
  it('charts requests per day in text, totals them, switches the period with p and opens a quote', async () => {
    const { project, upload } = await seedProject(server);
    const today = Math.floor(Date.now() / 1000);
    await seedRun(server, project.stamp, upload.stamp, { function: 'fit', createdAt: today });
    await seedRun(server, project.stamp, upload.stamp, { function: 'generate', createdAt: today - 86_400 });
    const quote = await seedQuote(server, project.stamp, upload.stamp, { name: 'Shrink usage', cent: 44 });
    await setRow(server, 'quotes', quote.stamp, { created_at: today });
    const ui = renderUi(server, `/client/${server.user.client}/usage`);
    const frame = await ui.see('Shrink usage');
    expect(frame).toContain('Usage of the last 30 days (UTC)');
    expect(frame).toMatch(/3 requests \(1 fit, 1 generate, 1 shrink\)/);
    expect(frame).toMatch(/input parameters · \$0\.44/);
    expect(frame).toContain('█');
    expect(frame).toMatch(/Shrink usage\s+Unpaid\s+\$0\.44/);
    await ui.type('p');
    // Keys wait for the period's figures: the title loses its … and the chart starts on the period's first day.
    const shown = (days: number) => {
      const first = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
      return new RegExp(`Usage of the last ${days} days \\(UTC\\)(?! …).*└${first} … `);
    };
    await ui.see(shown(90));
    await ui.type('p');
    await ui.see(shown(7));
    await ui.type(KEY.enter);
    await ui.see('Invoice amount: $0.44');
    ui.unmount();
  });
});
