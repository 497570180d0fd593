import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedBucket, seedProject, seedRun, seedUpload, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../testing/ui';

const server = withTestApi({ worker: false });

describe('RunDetailsScreen', { timeout: 30_000 }, () => {
  it('shows the request and downloads its results as ensemble_result_{date}_{time}.json', async () => {
    const bucket = await seedBucket(server);
    const rend = await seedUpload(server, bucket.stamp);
    // A result file in the server's storage, served through the run's signed link.
    const run = await seedRun(server, bucket.stamp, rend.stamp, { result: '[[0.25,0.5],[0.75,1]]' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${bucket.stamp}/run/${run.stamp}/details`);
    const frame = await ui.see('Download Results');
    expect(frame).toMatch(/Status:\s+Finished/);
    await ui.type(KEY.enter);
    await ui.see(/Saved \/here\/ensemble_result_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.json/);
    expect(JSON.parse(ui.saved[0].text)).toEqual([
      [0.25, 0.5],
      [0.75, 1],
    ]);
    ui.unmount();
  });

  it('refreshes until the request is final', async () => {
    const { bucket, run } = await seedProject(server);
    await setRow(server, 'runs', run.stamp, { state: 'Processing' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${bucket.stamp}/run/${run.stamp}/details`);
    await ui.see('Processing (updating live…)');
    await setRow(server, 'runs', run.stamp, { state: 'Failed', message: 'The model did not converge.' });
    const failed = await ui.see('The model did not converge. · Contact Support', 6000);
    expect(failed).toMatch(/Status:\s+Failed /);
    expect(failed).not.toContain('Download Results');
    ui.unmount();
  });

  it('an unknown request says so', async () => {
    const { bucket } = await seedProject(server);
    const ui = renderUi(server, `/client/${server.user.client}/project/${bucket.stamp}/run/nope/details`);
    await ui.see(MESSAGES.requestNotFound);
    ui.unmount();
  });
});
