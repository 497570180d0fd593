import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, seedEmptyProject, seedProject, seedRun, seedUpload, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('RunDetailsScreen', { timeout: 30_000 }, () => {
  it('shows the request and downloads its results as ensemble_result_{date}_{time}.json', async () => {
    const project = await seedEmptyProject(server);
    const upload = await seedUpload(server, project.stamp);
    // A result file in the server's storage, served through the run's signed link.
    const run = await seedRun(server, project.stamp, upload.stamp, { result: '[[0.25,0.5],[0.75,1]]' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/run/${run.stamp}/details`);
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
    const { project, run } = await seedProject(server);
    await setRow(server, 'runs', run.stamp, { state: 'Processing' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/run/${run.stamp}/details`);
    await ui.see('Processing (updating live…)');
    await setRow(server, 'runs', run.stamp, { state: 'Failed', message: 'The model did not converge.' });
    const failed = await ui.see('The model did not converge. · Contact Support', 6000);
    expect(failed).toMatch(/Status:\s+Failed /);
    expect(failed).not.toContain('Download Results');
    ui.unmount();
  });

  it('shows a progress bar, the loss as a sparkline, the latest events, and runs a request again with R', async () => {
    const { project, upload } = await seedProject(server);
    const fit = await seedRun(server, project.stamp, upload.stamp, { name: 'Live fit', function: 'fit', state: 'Processing' });
    // Its parameters, so it can be run again.
    const param = { explainability: false, input_column_size: 3, output_column_size: 2, task_target_size: 1, task: 'regression' };
    await rows(server)
      .insertInto('piles')
      .values({ stamp: `p_${fit.stamp}`, bucket: project.stamp, variety: 'FitModel', param: JSON.stringify(param), created_at: 1 })
      .execute();
    await setRow(server, 'runs', fit.stamp, { started_at: Math.floor(Date.now() / 1000) - 65, pile: `p_${fit.stamp}` });
    const gen = await seedRun(server, project.stamp, upload.stamp, { name: 'Its gen', function: 'generate', state: 'Pending' });
    await setRow(server, 'runs', gen.stamp, { fit: fit.stamp });
    const points = [1, 2, 3, 4].map((epoch) => ({ epoch, loss: 1 / epoch, valLoss: 1.1 / epoch }));
    await rows(server)
      .insertInto('run_events')
      .values({
        run: fit.stamp,
        at: Math.floor(Date.now() / 1000),
        kind: 'progress',
        message: 'Epoch 4 of 8: loss 0.25',
        data: JSON.stringify({ epoch: 4, epochs: 8, loss: 0.25, valLoss: 0.275, points }),
      })
      .execute();
    // The generate request waits for its model: it shows the training's progress and loss.
    const waiting = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/run/${gen.stamp}/details`);
    const before = await waiting.see('Training its model');
    expect(before).toContain('50% Training its model: Epoch 4 of 8');
    expect(before).toMatch(/Loss:\s+█▃▂▁ 0\.25/);
    waiting.unmount();

    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/run/${fit.stamp}/details`);
    const frame = await ui.see('Epoch 4 of 8');
    expect(frame).toContain('[██████████░░░░░░░░░░] 50% Epoch 4 of 8');
    expect(frame).toMatch(/Loss:\s+█▃▂▁ 0\.25 \(validation 0\.275\) after 4 epochs/);
    expect(frame).toMatch(/Duration:\s+1 min/);
    expect(frame).toContain('progress Epoch 4 of 8: loss 0.25');
    expect(frame).toContain('state Processing');
    await ui.type('R');
    await ui.see(MESSAGES.rerunStarted);
    const made = await rows(server)
      .selectFrom('runs')
      .select(['stamp'])
      .where('bucket', '=', project.stamp)
      .where('function', '=', 'fit')
      .where('stamp', '!=', fit.stamp)
      .execute();
    expect(made.length).toBe(1);
    await ui.see(/Status:\s+Pending/);
    ui.unmount();
  });

  it('an unknown request says so', async () => {
    const { project } = await seedProject(server);
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/run/nope/details`);
    await ui.see(MESSAGES.requestNotFound);
    ui.unmount();
  });
});
