import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, seedBucket, seedProject, seedUpload, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../testing/ui';

const server = withTestApi({ worker: false });

describe('CreateFitRunScreen', { timeout: 30_000 }, () => {
  it('checks the form against the plan, then creates pile, fit and generate and opens the details', async () => {
    const { bucket, rend } = await seedProject(server);
    const ui = renderUi(server, `/client/${server.user.client}/project/${bucket.stamp}/create-fit-run`);
    await ui.see('Explainability: [ ] (not available)');
    // Submit at once: every field is reported.
    await ui.type(...Array(7).fill(KEY.tab), KEY.enter);
    let frame = await ui.see(MESSAGES.titleCreate);
    expect(frame).toContain(MESSAGES.selectUpload);
    expect(frame).toContain(MESSAGES.fillAllFields);
    // Name, choose the Ready upload, sizes over the Individual limit.
    await ui.type(
      ...Array(7).fill(KEY.shiftTab),
      'My fit',
      KEY.tab,
      KEY.enter,
      '4',
      KEY.tab,
      '9',
      KEY.tab,
      KEY.tab,
      KEY.enter,
      KEY.tab,
      KEY.enter,
    );
    frame = await ui.see(MESSAGES.planLimitInputs('Individual', 3));
    expect(frame).toContain(MESSAGES.planLimitOutputs('Individual', 5));
    expect(frame).toContain('Upgrade:');
    expect(server.calls).not.toContain('pileCreate');
    await ui.type(...Array(5).fill(KEY.shiftTab), '\u007F', '3', KEY.tab, '\u007F', '5', ...Array(4).fill(KEY.tab), KEY.enter);
    frame = await ui.see(/Function:\s+generate/);
    expect(frame).toContain('My fit');
    expect(server.calls.filter((c) => c === 'runCreate')).toHaveLength(2);
    // The server holds the parameters, the fit on the chosen upload and the generate request that uses it.
    const piles = await rows(server).selectFrom('piles').selectAll().where('bucket', '=', bucket.stamp).execute();
    expect(piles).toHaveLength(1);
    expect(piles[0].variety).toBe('FitModel');
    expect(JSON.parse(piles[0].param)).toMatchObject({ input_column_size: 3, output_column_size: 5 });
    const made = await rows(server)
      .selectFrom('runs')
      .selectAll()
      .where('bucket', '=', bucket.stamp)
      .where('name', '=', 'My fit')
      .execute();
    const fit = made.find((r) => r.function === 'fit');
    expect(fit).toMatchObject({ rend: rend.stamp, pile: piles[0].stamp });
    expect(made.find((r) => r.function === 'generate')).toMatchObject({ rend: rend.stamp, fit: fit?.stamp });
    ui.unmount();
  });

  it('labels the sizes with the plan maximum; an upload without a .json file cannot be used', async () => {
    const bucket = await seedBucket(server);
    await seedUpload(server, bucket.stamp, { name: 'data.json', items: [{ name: 'data.txt' }] });
    const ui = renderUi(server, `/client/${server.user.client}/project/${bucket.stamp}/create-fit-run`);
    const frame = await ui.see('Input column size (1-3)');
    expect(frame).toContain('Output column size (1-5)');
    await ui.see('Only Ready uploads can be chosen.');
    await ui.type('My fit', KEY.tab, KEY.enter, '3', KEY.tab, '5', KEY.tab, KEY.tab, KEY.enter, KEY.tab, KEY.enter);
    await ui.see(MESSAGES.generateFileNotFound);
    expect(server.calls).not.toContain('pileCreate');
    expect(await rows(server).selectFrom('runs').select('stamp').where('bucket', '=', bucket.stamp).execute()).toHaveLength(0);
    ui.unmount();
  });
});
