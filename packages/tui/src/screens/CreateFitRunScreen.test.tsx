import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, seedEmptyProject, seedModel, seedUpload, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('CreateFitRunScreen', { timeout: 30_000 }, () => {
  it('checks the form against the plan, then creates pile, fit and generate and opens the details', async () => {
    // A project with a Ready upload and no model of its own: the Model field offers the general models.
    const project = await seedEmptyProject(server);
    const upload = await seedUpload(server, project.stamp);
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/create-fit-run`);
    await ui.see('Explainability: [ ] (not available)');
    // Submit at once: every field is reported.
    await ui.type(...Array(8).fill(KEY.tab), KEY.enter);
    let frame = await ui.see(MESSAGES.titleCreate);
    expect(frame).toContain(MESSAGES.selectUpload);
    expect(frame).toContain(MESSAGES.fillAllFields);
    // Name, choose the Ready upload, sizes over the Individual limit.
    await ui.type(
      ...Array(8).fill(KEY.shiftTab),
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
      KEY.enter,
    );
    frame = await ui.see(MESSAGES.planLimitInputs('Individual', 3));
    expect(frame).toContain(MESSAGES.planLimitOutputs('Individual', 5));
    expect(frame).toContain('Upgrade:');
    expect(server.calls).not.toContain('pileCreate');
    await ui.type(...Array(6).fill(KEY.shiftTab), '\u007F', '3', KEY.tab, '\u007F', '5', ...Array(5).fill(KEY.tab), KEY.enter);
    // It opens the fit (how good the model is); its embeddings are the generate request, named apart.
    frame = await ui.see(/Function:\s+fit/);
    expect(frame).toContain('My fit');
    expect(server.calls.filter((c) => c === 'runCreate')).toHaveLength(2);
    // The server holds the parameters, the fit on the chosen upload and the generate request that uses it.
    const piles = await rows(server).selectFrom('piles').selectAll().where('bucket', '=', project.stamp).execute();
    expect(piles).toHaveLength(1);
    expect(piles[0].variety).toBe('FitModel');
    expect(JSON.parse(piles[0].param)).toMatchObject({ input_column_size: 3, output_column_size: 5 });
    const made = await rows(server).selectFrom('runs').selectAll().where('bucket', '=', project.stamp).execute();
    const fit = made.find((r) => r.function === 'fit');
    expect(fit).toMatchObject({ name: 'My fit', rend: upload.stamp, pile: piles[0].stamp });
    expect(made.find((r) => r.function === 'generate')).toMatchObject({ name: 'My fit (embeddings)', rend: upload.stamp, fit: fit?.stamp });
    ui.unmount();
  });

  it('labels the sizes with the plan maximum; an upload without a .json file cannot be used', async () => {
    const project = await seedEmptyProject(server);
    await seedUpload(server, project.stamp, { name: 'data.json', items: [{ name: 'data.txt' }] });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/create-fit-run`);
    const frame = await ui.see('Input column size (1-3)');
    expect(frame).toContain('Output column size (1-5)');
    await ui.see('Only Ready uploads can be chosen.');
    await ui.type('My fit', KEY.tab, KEY.enter, '3', KEY.tab, '5', KEY.tab, KEY.tab, KEY.enter, KEY.tab, KEY.enter, KEY.enter);
    await ui.see(MESSAGES.generateFileNotFound);
    expect(server.calls).not.toContain('pileCreate');
    expect(await rows(server).selectFrom('runs').select('stamp').where('bucket', '=', project.stamp).execute()).toHaveLength(0);
    ui.unmount();
  });

  it("reuses one of the project's Finished models: only the generate run, then its details", async () => {
    const project = await seedEmptyProject(server);
    const upload = await seedUpload(server, project.stamp, { name: 'data.json' });
    const model = await seedModel(server, project.stamp, upload.stamp, { name: 'Trained' });
    await setRow(server, 'models', model.stamp, { data: '{}' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/create-fit-run`);
    await ui.see('Model:');
    // Name, the upload, then down to the Model field: Reuse Trained, and submit.
    await ui.type('Reused', KEY.tab, KEY.enter, ...Array(5).fill(KEY.tab));
    await ui.see('Reuse Trained');
    await ui.type(KEY.down, KEY.enter, KEY.enter);
    await ui.see(/Function:\s+generate/);
    const made = await rows(server)
      .selectFrom('runs')
      .select(['function', 'model', 'rend', 'name'])
      .where('bucket', '=', project.stamp)
      .execute();
    expect(made).toEqual([{ function: 'generate', model: model.stamp, rend: upload.stamp, name: 'Reused' }]);
    expect(server.calls).not.toContain('pileCreate');
    ui.unmount();
  });

  it('reuses a general model: only the generate run, with no fit behind it', async () => {
    const project = await seedEmptyProject(server);
    const upload = await seedUpload(server, project.stamp, { name: 'data.json' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/create-fit-run`);
    await ui.see('Model: Train a new model');
    await ui.type('General', KEY.tab, KEY.enter, ...Array(5).fill(KEY.tab));
    await ui.see('Reuse Tabular classification (general)');
    await ui.type(KEY.down, KEY.down, KEY.enter, KEY.enter);
    await ui.see(/Function:\s+generate/);
    const made = await rows(server)
      .selectFrom('runs')
      .select(['function', 'model', 'fit', 'rend'])
      .where('bucket', '=', project.stamp)
      .execute();
    expect(made).toEqual([{ function: 'generate', model: 'general-tabular-classification', fit: null, rend: upload.stamp }]);
    ui.unmount();
  });

  it('keys you can predict: Enter moves to the next empty field (a picker shows its list), typing in a picker filters it, Enter picks, Esc clears the filter before it leaves, errors follow the values', async () => {
    const project = await seedEmptyProject(server);
    for (const name of ['alpha.json', 'beta.json', 'churn-2026.json', 'delta.json']) await seedUpload(server, project.stamp, { name });
    const runsPath = `/client/${server.user.client}/project/${project.stamp}/runs`;
    const ui = renderUi(server, runsPath);
    await ui.see('No Requests Found');
    await ui.type('n');
    await ui.see('Create Request');
    // Enter in the first field moves to the next empty required field: the Upload picker, its list shown.
    await ui.type('My fit');
    await ui.see('Request name: My fit');
    await ui.type(KEY.enter);
    let frame = await ui.see('› Upload');
    expect(frame).toContain('beta.json');
    expect(frame).not.toContain(MESSAGES.selectUpload);
    // Typing in the Upload picker filters it; Esc clears the filter and stays on the form.
    await ui.type('chu');
    frame = await ui.see('Filter: chu');
    expect(frame).toContain('churn-2026.json');
    expect(frame).not.toContain('beta.json');
    await ui.type(KEY.esc);
    frame = await ui.see('beta.json');
    expect(frame).toContain('Create Request');
    // Filter again and Enter picks the match (and moves on); its error goes as soon as it is chosen.
    await ui.type('2026', KEY.enter);
    frame = await ui.see(/Upload: churn-2026\.json/);
    expect(frame).not.toContain(MESSAGES.selectUpload);
    // A size over the plan's limit is reported as it is typed, and the message goes when it is fixed.
    await ui.type('4');
    await ui.see(MESSAGES.planLimitInputs('Individual', 3));
    await ui.type('\u007F', '3');
    await ui.gone(MESSAGES.planLimitInputs('Individual', 3));
    // Esc with no filter to clear leaves the form.
    await ui.type(KEY.shiftTab, KEY.esc);
    await ui.see('Requests');
    expect(server.calls).not.toContain('pileCreate');
    ui.unmount();
  });
});
