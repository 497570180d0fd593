import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedProject, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('RunDetailsScreen', { timeout: 30_000 }, () => {
  it('shows the request and downloads its results as ensemble_result_{date}_{time}.json', async () => {
    const { bucket, run, rend } = seedProject(server.state);
    run.url = `${server.url}/results/${rend.stamp}.json`;
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/run/${run.stamp}/details`);
    const frame = await ui.see('Download Results');
    expect(frame).toMatch(/Status:\s+Finished/);
    await ui.type(KEY.enter);
    await ui.see(/Saved \/here\/ensemble_result_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.json/);
    expect(JSON.parse(ui.saved[0].text)).toEqual([[0.25, 0.5], [0.75, 1]]);
    ui.unmount();
  });

  it('refreshes until the request is final', async () => {
    const { bucket, run } = seedProject(server.state);
    run.state = 'Processing';
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/run/${run.stamp}/details`);
    await ui.see('Processing (updating live…)');
    run.state = 'Failed';
    run.message = 'The model did not converge.';
    const failed = await ui.see('The model did not converge. · Contact Support', 6000);
    expect(failed).toMatch(/Status:\s+Failed /);
    expect(failed).not.toContain('Download Results');
    ui.unmount();
  });

  it('an unknown request says so', async () => {
    seedProject(server.state);
    const ui = renderUi(server, `/client/cli000001/project/${server.state.buckets[0].stamp}/run/nope/details`);
    await ui.see(MESSAGES.requestNotFound);
    ui.unmount();
  });
});
