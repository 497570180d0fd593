import { describe, expect, it } from 'vitest';
import { apiClient, rows, seedEmptyProject, seedUpload, withTestApi } from '@portal/testkit/api';
import { createFitRequest, createShrinkRequest, MESSAGES } from '@portal/core';

// The real server without its worker: the requests stay as created, so what each step wrote can be read back.
const server = withTestApi({ worker: false });

const piles = (project: string) =>
  rows(server).selectFrom('piles').select(['stamp', 'variety', 'param']).where('bucket', '=', project).execute();
const runs = (project: string) =>
  rows(server)
    .selectFrom('runs')
    .select(['stamp', 'function', 'rend', 'pile', 'fit', 'name', 'state'])
    .where('bucket', '=', project)
    .orderBy('seq')
    .execute();

/** A project with a Ready upload holding an analysed file of this name. */
async function projectWithUpload(file: string, flight: 'Ready' | 'Processing' = 'Ready') {
  const project = (await seedEmptyProject(server)).stamp;
  const upload = (await seedUpload(server, project, { name: file, flight })).stamp;
  return { project, upload };
}

describe('createFitRequest', { timeout: 30_000 }, () => {
  it('creates pile → fit run → generate run, named apart, and returns both', async () => {
    const { project, upload } = await projectWithUpload('train.json');
    const param = { explainability: false, input_column_size: 3, output_column_size: 5, task_target_size: 1 };
    const made = await createFitRequest(apiClient(server), { project, upload, name: '  My fit ', param });
    expect(server.calls).toEqual(['pileCreate', 'runCreate', 'runCreate']);
    // The parameters with the default task, then the fit on them and the generate on the fit, each named for what it makes.
    const [pile] = await piles(project);
    expect([pile.variety, JSON.parse(pile.param)]).toEqual(['FitModel', { ...param, task: 'regression' }]);
    const [fit, generate] = await runs(project);
    expect(fit).toMatchObject({
      stamp: made.fit,
      function: 'fit',
      rend: upload,
      pile: pile.stamp,
      fit: null,
      name: 'My fit',
      state: 'Pending',
    });
    expect(generate).toMatchObject({
      stamp: made.generate,
      function: 'generate',
      rend: upload,
      pile: null,
      fit: fit.stamp,
      name: 'My fit (embeddings)',
      state: 'Pending',
    });
  });

  it('fails with "Failed to create request" when a step fails', async () => {
    const param = {
      explainability: false,
      input_column_size: 1,
      output_column_size: 1,
      task_target_size: 1,
      task: 'classification' as const,
    };
    // The server refuses the fit run: the upload is still being processed.
    const pending = await projectWithUpload('train.json', 'Processing');
    const refused = await createFitRequest(apiClient(server), { ...pending, name: 'F', param }).catch((e) => e);
    expect(refused).toMatchObject({
      status: 409,
      display: 'Failed to create request',
      serverMessage: 'The selected upload is not ready yet: wait until its files are processed.',
    });
    expect(server.calls).toEqual(['pileCreate', 'runCreate']);
    expect(await runs(pending.project)).toEqual([]);
    // A server error at the first step: nothing is made.
    const ready = await projectWithUpload('train.json');
    server.calls.length = 0;
    server.fail('pileCreate', { status: 500 });
    const failed = await createFitRequest(apiClient(server), { ...ready, name: 'F', param }).catch((e) => e);
    expect(failed).toMatchObject({
      status: 500,
      display: 'Failed to create request',
      serverMessage: MESSAGES.serverError(500, 'Simulated failure'),
    });
    expect(server.calls).toEqual(['pileCreate']);
    expect(await piles(ready.project)).toEqual([]);
  });
});

describe('createShrinkRequest', { timeout: 30_000 }, () => {
  it('creates pile → shrink and returns the quote', async () => {
    const { project, upload } = await projectWithUpload('net.py');
    const stamp = await createShrinkRequest(apiClient(server), { project, upload, name: 'S', desc: 'd' });
    expect(server.calls).toEqual(['pileCreate', 'shrinkCreate']);
    const [pile] = await piles(project);
    expect([pile.variety, JSON.parse(pile.param)]).toEqual(['ShrinkService', {}]);
    const quote = await rows(server)
      .selectFrom('quotes')
      .select(['stamp', 'rend', 'pile', 'name', 'desc', 'function'])
      .where('bucket', '=', project)
      .executeTakeFirstOrThrow();
    expect(quote).toEqual({ stamp, rend: upload, pile: pile.stamp, name: 'S', desc: 'd', function: 'shrink' });
  });
});
