import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, UPLOAD_CONTEXTS } from '@portal/core';
import { fitData } from '@portal/testkit/harness';
import { portal, signedIn } from '../../test/cli';
import { rows, seedEmptyProject, seedProject, seedQuote, setRow, withTestApi } from '@portal/testkit/api';
import { setCredit, storedBytes } from '@portal/testkit/seed';
import type { memoryStore } from '../store';

// The worker runs: pushed files are analysed and requests are processed as in production.
const server = withTestApi();
let store: ReturnType<typeof memoryStore>;
let dir: string;
beforeEach(async () => {
  store = signedIn(server);
  dir = await mkdtemp(join(tmpdir(), 'portal-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
/** The uploads of a project as the server's database holds them, removed ones included. */
const uploadRows = (project: string) =>
  rows(server)
    .selectFrom('rends')
    .select(['stamp', 'name', 'flight', 'active'])
    .where('bucket', '=', project)
    .orderBy('created_at')
    .orderBy('stamp')
    .execute();
const PY_MODEL =
  'import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc1 = nn.Linear(10, 20)\n        self.fc2 = nn.Linear(20, 2)\n';

describe('portal uploads', { timeout: 60_000 }, () => {
  it('pushes files (register, PUT with the checksum, finish) and waits for Ready', async () => {
    const { project } = await seedProject(server);
    // Two small tables the server's analysis accepts.
    const a = JSON.stringify([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    const b = '1 2 3 4\n5 6 7 8\n';
    await writeFile(join(dir, 'a.json'), a);
    await writeFile(join(dir, 'b.txt'), b);
    const r = await portal(['uploads', 'push', 'a.json', 'b.txt', '--wait', '--json'], { store, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const upload = JSON.parse(r.stdout);
    expect(upload).toMatchObject({ name: 'a.json (+1 more)', flight: 'Ready' });
    // The files in the order they were sent (both registered within the same second).
    const items = upload.upload.list;
    expect(items.map((u: { name: string }) => u.name)).toEqual(['a.json', 'b.txt']);
    expect(r.stderr).toContain(MESSAGES.uploadSucceeded('a.json'));
    expect(r.stderr).toContain(MESSAGES.uploadSucceeded('b.txt'));
    expect(r.stderr).toMatch(/a\.json \[=+\] 100%/);
    // The server's storage holds each file's bytes, as they are on disk.
    const stored = await Promise.all(items.map((u: { stamp: string }) => storedBytes(server, u.stamp)));
    expect(stored).toEqual([
      { size: a.length, sha256: sha256(a) },
      { size: b.length, sha256: sha256(b) },
    ]);
    expect(items.map((u: { state: string; meta: { rows: number } }) => [u.state, u.meta.rows])).toEqual([
      ['Finished', 2],
      ['Finished', 2],
    ]);
    expect(await uploadRows(project.stamp)).toHaveLength(2);
    const list = await portal(['uploads', 'list'], { store });
    expect(list.stdout).toContain('a.json (+1 more)');
  });

  it('refuses a wrong extension, a file too large and a missing file with SPEC text', async () => {
    const { project } = await seedProject(server);
    await writeFile(join(dir, 'x.exe'), 'x');
    const ext = await portal(['uploads', 'push', 'x.exe'], { store, cwd: dir });
    expect(ext.code).toBe(1);
    expect(ext.stderr.trim()).toBe(MESSAGES.invalidFileType(UPLOAD_CONTEXTS.uploads.extensions));
    await writeFile(join(dir, 'big.json'), Buffer.alloc(1024 * 1024 + 1));
    const big = await portal(['uploads', 'push', 'big.json'], { store, cwd: dir });
    expect(big.code).toBe(1);
    expect(big.stderr.trim()).toBe(MESSAGES.fileTooLarge);
    const missing = await portal(['uploads', 'push', 'nope.json'], { store, cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Cannot read nope.json: no such file');
    expect(server.calls).not.toContain('rendCreate');
    expect(await uploadRows(project.stamp)).toHaveLength(1);
  });

  it('a project known by its id needs no look-up: only the upload calls are made, and the answer is the finished group', async () => {
    const { project } = await seedProject(server);
    await writeFile(join(dir, 'a.json'), '[[1,2,3,4]]');
    server.calls.length = 0;
    const r = await portal(['uploads', 'push', 'a.json', '--project', project.stamp, '--json'], { store, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'a.json', upload: { list: [{ name: 'a.json' }] } });
    expect(server.calls).toEqual(['rendCreate', 'uploadRegister', 'storagePut', 'uploadFinish', 'rendFinish']);
  });

  it('--project given by name, or a default project removed since, is found through the account', async () => {
    const { project } = await seedProject(server);
    await writeFile(join(dir, 'a.json'), '[[1,2,3,4]]');
    const pushed = async () => (await uploadRows(project.stamp)).filter((x) => x.name === 'a.json' && x.active === 1);
    const byName = await portal(['uploads', 'push', 'a.json', '--project', project.name, '--json'], { store, cwd: dir });
    expect(byName.code, byName.stderr).toBe(0);
    expect(await pushed()).toHaveLength(1);
    store.host(server.url).set('project', 'b_removed_since');
    const stale = await portal(['uploads', 'push', 'a.json', '--json'], { store, cwd: dir });
    expect(stale.code, stale.stderr).toBe(0);
    expect(await pushed()).toHaveLength(2);
    const unknown = await portal(['uploads', 'push', 'a.json', '--project', 'Nowhere'], { store, cwd: dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('No project Nowhere in Analytical Engines (see portal projects list)');
  });

  it('a file over the plan limit pushed to a project known by id: the server refuses it, SPEC text, nothing left behind', async () => {
    const { project } = await seedProject(server);
    await writeFile(join(dir, 'big.json'), Buffer.alloc(1024 * 1024 + 1));
    const big = await portal(['uploads', 'push', 'big.json', '--project', project.stamp], { store, cwd: dir });
    expect(big.code).toBe(1);
    expect(big.stderr.trim()).toBe(MESSAGES.fileTooLarge);
    // The server refused the file when it was registered: the group made for it was removed, no bytes were sent.
    expect(server.calls).toContain('uploadRegister');
    expect(server.calls).not.toContain('storagePut');
    expect((await uploadRows(project.stamp)).filter((x) => x.name === 'big.json' && x.active === 1)).toEqual([]);
    // Several files, one of them over the Individual limit: the plan is checked before anything is sent.
    await writeFile(join(dir, 'small.json'), '[[1,2,3,4]]');
    server.calls.length = 0;
    const two = await portal(['uploads', 'push', 'small.json', 'big.json', '--project', project.stamp], { store, cwd: dir });
    expect(two.code).toBe(1);
    expect(two.stderr.trim()).toBe(MESSAGES.fileTooLarge);
    expect(server.calls).not.toContain('rendCreate');
  });

  it('--resume continues an upload that was cut off: finished files are skipped, registered ones sent under the same item', async () => {
    const { project } = await seedProject(server);
    const a = '[[1,2,3,4]]';
    const b = '[[5,6,7,8]]';
    await writeFile(join(dir, 'a.json'), a);
    await writeFile(join(dir, 'my data.json'), b);
    // A push cut off after the first file was finished and the second registered (the process was killed).
    const call = async (method: string, path: string, body: unknown) => {
      const r = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${server.user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status, path).toBe(200);
      return r.json();
    };
    const { rend: upload } = await call('PUT', '/api/rend/item', { bucket: project.stamp, name: 'a.json (+1 more)' });
    const first = await call('PUT', '/api/upload/item', {
      rend: upload.stamp,
      name: 'a.json',
      file: { checksum: sha256(a), name: 'a.json', size: a.length },
    });
    expect((await fetch(new URL(first.upload.url, server.url), { method: 'PUT', body: a })).ok).toBe(true);
    await call('POST', '/api/upload/finish', { upload: first.upload.stamp });
    const file = { checksum: sha256(b), name: 'my data.json', size: b.length };
    const second = await call('PUT', '/api/upload/item', { rend: upload.stamp, name: 'my data.json', file });
    server.calls.length = 0;
    const groups = (await uploadRows(project.stamp)).length;

    const r = await portal(['uploads', 'push', 'a.json', '~/my data.json', '--resume', '--wait', '--json', '--project', project.stamp], {
      store,
      cwd: dir,
      env: { HOME: dir },
    });
    expect(r.code, r.stderr).toBe(0);
    const done = JSON.parse(r.stdout);
    expect(done).toMatchObject({ stamp: upload.stamp, flight: 'Ready' });
    // No second group, no second item: the registered one was sent again under its own stamp.
    expect(done.upload.list.map((i: { stamp: string }) => i.stamp).sort()).toEqual([first.upload.stamp, second.upload.stamp].sort());
    expect(server.calls.filter((c) => c === 'rendCreate' || c === 'storagePut')).toEqual(['storagePut']);
    expect(await uploadRows(project.stamp)).toHaveLength(groups);

    const nothing = await portal(['uploads', 'push', 'a.json', '--resume', '--project', project.stamp], { store, cwd: dir });
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('No unfinished upload of these files');
  });

  it('Ctrl+C cancels the push and removes the half-made upload', async () => {
    const { project } = await seedProject(server);
    await writeFile(join(dir, 'a.json'), '[[1,2,3,4]]');
    // The bytes are held on their way to storage; Ctrl+C is pressed while they are in flight.
    server.storageDelayMs = 2000;
    let poll: ReturnType<typeof setInterval> | undefined;
    const pressWhileSending = (press: () => void) => {
      poll = setInterval(() => {
        if (!server.calls.includes('storagePut')) return;
        clearInterval(poll);
        press();
      }, 10);
    };
    const r = await portal(['uploads', 'push', 'a.json'], { store, cwd: dir, onInterrupt: pressWhileSending }).finally(() =>
      clearInterval(poll),
    );
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(MESSAGES.uploadCancelled);
    expect(server.calls).toContain('rendRemove');
    const made = (await uploadRows(project.stamp)).filter((x) => x.name === 'a.json');
    expect(made).toHaveLength(1);
    expect(made[0].active).toBe(0);
    expect((await portal(['uploads', 'list', '--json'], { store })).stdout).not.toContain('"a.json"');
  });

  it('renames and removes uploads', async () => {
    const { project, upload } = await seedProject(server);
    expect((await portal(['uploads', 'rename', upload.stamp, '--name', 'March'], { store })).code).toBe(0);
    expect(await uploadRows(project.stamp)).toMatchObject([{ stamp: upload.stamp, name: 'March', active: 1 }]);
    expect((await portal(['uploads', 'remove', upload.stamp, '--yes'], { store })).code).toBe(0);
    expect((await portal(['uploads', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noUploads);
    expect(await uploadRows(project.stamp)).toMatchObject([{ stamp: upload.stamp, active: 0 }]);
  });
});

describe('portal fit / runs / models', { timeout: 60_000 }, () => {
  it('creates a fit request, follows it and downloads the results', async () => {
    const project = await seedEmptyProject(server);
    // Training data of three inputs and a target, pushed and analysed by the server.
    await writeFile(join(dir, 'train.json'), fitData(40, 3));
    const push = await portal(['uploads', 'push', 'train.json', '--wait', '--json'], { store, cwd: dir });
    expect(push.code, push.stderr).toBe(0);
    const upload = JSON.parse(push.stdout);
    expect(upload.flight).toBe('Ready');

    const r = await portal(
      ['fit', '--upload', upload.stamp, '--inputs', '3', '--outputs', '5', '--target', '1', '--name', 'Fit one', '--wait', '--json'],
      { store },
    );
    expect(r.code, r.stderr).toBe(0);
    const status = JSON.parse(r.stdout);
    // The fit is shown, its embeddings (the generate run, named apart) beside it.
    expect(status.run.record).toMatchObject({ name: 'Fit one', function: 'fit', state: 'Finished' });
    expect(status.generate.record).toMatchObject({ name: 'Fit one (embeddings)', function: 'generate', state: 'Finished' });
    expect(server.calls.filter((c) => c === 'runCreate')).toHaveLength(2);
    expect(server.calls).toContain('pileCreate');
    const made = await rows(server)
      .selectFrom('runs')
      .select(['function', 'state'])
      .where('bucket', '=', project.stamp)
      .orderBy('function')
      .execute();
    expect(made).toEqual([
      { function: 'fit', state: 'Finished' },
      { function: 'generate', state: 'Finished' },
    ]);

    // The trained model reused on the same upload: only a generate run, applied by the worker.
    const model = await rows(server)
      .selectFrom('models')
      .select(['stamp', 'state'])
      .where('bucket', '=', project.stamp)
      .executeTakeFirstOrThrow();
    expect(model.state).toBe('Finished');
    const before = server.calls.length;
    const reuse = await portal(['generate', '--model', model.stamp, '--upload', upload.stamp, '--name', 'Reuse', '--wait', '--json'], {
      store,
    });
    expect(reuse.code, reuse.stderr).toBe(0);
    expect(JSON.parse(reuse.stdout).run.record).toMatchObject({ name: 'Reuse', function: 'generate', state: 'Finished' });
    const reuseCalls = server.calls.slice(before);
    expect(reuseCalls.filter((c) => c === 'runCreate')).toHaveLength(1);
    expect(reuseCalls).not.toContain('pileCreate');
    // A general model applies to the same upload without training: min(columns, 5) values per row.
    const general = await portal(
      ['generate', '--model', 'general-tabular-regression', '--upload', upload.stamp, '--name', 'General', '--wait', '--json'],
      { store },
    );
    expect(general.code, general.stderr).toBe(0);
    const generalRun = JSON.parse(general.stdout).run;
    expect(generalRun.record).toMatchObject({ name: 'General', function: 'generate', state: 'Finished' });
    expect(await (await fetch(generalRun.url)).json()).toMatchObject({ rows: 40, width: 4, model: 'general-tabular-regression' });
    const wrong = await portal(['generate', '--model', 'm_nope', '--upload', upload.stamp], { store });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`${MESSAGES.selectModel}: m_nope is neither a Finished model of`);

    const now = new Date(2026, 10, 21, 9, 5, 7).getTime();
    const d = await portal(['runs', 'download', status.generate.record.stamp], { store, cwd: dir, now });
    expect(d.code, d.stderr).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['ensemble_result_2026-11-21_09-05-07.json', 'train.json']);
    // The file holds the server's results: what its download link serves.
    const served = await (await fetch(status.generate.url)).json();
    const saved = JSON.parse(await readFile(join(dir, 'ensemble_result_2026-11-21_09-05-07.json'), 'utf8'));
    expect(saved).toEqual(served);
    expect(saved).toMatchObject({ format: 'embeddings', rows: 40, inputs: 3, width: 5 });
    expect(saved.embeddings).toHaveLength(40);

    const list = await portal(['runs', 'list'], { store, tty: true });
    expect(list.stdout.split('\n')[0]).toMatch(/^NAME\s+ID\s+FUNCTION\s+STATUS\s+MESSAGE\s+CREATED\s+UPLOAD$/);
    expect(list.stdout).toContain('Fit one');
  });

  it('pushes a CSV with a text label as its JSON table and fits by column names, with the held-out score', async () => {
    const project = await seedEmptyProject(server);
    const names = ['setosa', 'versicolor', 'virginica'];
    const lines = ['f1,f2,f3,label'];
    for (let i = 0; i < 60; i++) lines.push([(i % 3) * 2 + Math.sin(i) * 0.1, Math.sin(i * 2), Math.cos(i * 3), names[i % 3]].join(','));
    await writeFile(join(dir, 'flowers.csv'), lines.join('\r\n') + '\r\n');
    const push = await portal(['uploads', 'push', 'flowers.csv', '--wait', '--json', '--project', project.stamp], { store, cwd: dir });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain('flowers.csv is uploaded as a JSON table (flowers.json)');
    const upload = JSON.parse(push.stdout);
    expect(upload.flight).toBe('Ready');
    const wrong = await portal(['fit', '--upload', upload.stamp, '--target-column', 'nope', '--project', project.stamp], { store });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('The upload has no column "nope"');
    const args = ['fit', '--upload', upload.stamp, '--target-column', 'label', '--input-columns', 'f1,f2,f3', '--name', 'Flowers'];
    const r = await portal([...args, '--wait', '--json', '--project', project.stamp], { store });
    expect(r.code, r.stderr).toBe(0);
    const status = JSON.parse(r.stdout);
    expect(status.run.record).toMatchObject({ name: 'Flowers', function: 'fit', state: 'Finished' });
    expect(status.run.record.metrics).toMatchObject({ name: 'accuracy' });
    const [pile] = await rows(server).selectFrom('piles').select(['param']).where('bucket', '=', project.stamp).execute();
    expect(JSON.parse(pile.param)).toMatchObject({ input_columns: ['f1', 'f2', 'f3'], target_columns: ['label'], task: 'classification' });
    const show = await portal(['runs', 'show', status.run.record.stamp], { store });
    expect(show.stdout).toMatch(/How good\tAccuracy [\d.]+% on \d+ held-out rows/);
  });

  it('checks the plan limits, the numbers and the upload', async () => {
    const { upload } = await seedProject(server);
    const over = await portal(['fit', '--upload', upload.stamp, '--inputs', '4', '--outputs', '5', '--target', '1'], { store });
    expect(over.code).toBe(1);
    expect(over.stderr.trim()).toBe(MESSAGES.planLimitInputs('Individual', 3));
    const explain = await portal(['fit', '--upload', upload.stamp, '--inputs', '3', '--outputs', '5', '--target', '1', '--explain'], {
      store,
    });
    expect(explain.stderr.trim()).toBe(MESSAGES.explainabilityNotAllowed);
    const nan = await portal(['fit', '--upload', upload.stamp, '--inputs', 'three', '--outputs', '5', '--target', '1'], { store });
    expect(nan.code).toBe(2);
    expect(nan.stderr).toContain('--inputs must be a whole number');
    await setRow(server, 'uploads', upload.items[0], { name: 'data.txt', file_name: 'data.txt' });
    const noJson = await portal(['fit', '--upload', upload.stamp, '--inputs', '3', '--outputs', '5', '--target', '1'], { store });
    expect(noJson.code).toBe(1);
    expect(noJson.stderr.trim()).toBe(MESSAGES.generateFileNotFound);
    await setRow(server, 'uploads', upload.items[0], { name: 'data.json', file_name: 'data.json' });
    const unknown = await portal(['fit', '--upload', 'nope', '--inputs', '3', '--outputs', '5', '--target', '1'], { store });
    expect(unknown.stderr.trim()).toBe(MESSAGES.uploadNotFound);
    const missing = await portal(['fit', '--upload', upload.stamp, '--inputs', '3'], { store });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--outputs is required');
    expect(server.calls).not.toContain('pileCreate');
    expect(server.calls).not.toContain('runCreate');
  });

  it('runs show: Request not found for an unknown id; rename and remove', async () => {
    const { run } = await seedProject(server);
    const nf = await portal(['runs', 'show', 'nope'], { store });
    expect(nf.code).toBe(1);
    expect(nf.stderr.trim()).toBe(MESSAGES.requestNotFound);
    const show = await portal(['runs', 'show', run.stamp], { store });
    expect(show.stdout).toContain(`ID\t${run.stamp}`);
    expect((await portal(['runs', 'rename', run.stamp, '--name', 'Renamed'], { store })).code).toBe(0);
    expect((await portal(['runs', 'show', run.stamp], { store })).stdout).toContain('Name\tRenamed');
    expect((await portal(['runs', 'remove', run.stamp, '--yes'], { store })).code).toBe(0);
    expect((await portal(['runs', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noRequests);
    expect(await rows(server).selectFrom('runs').select(['name', 'active']).where('stamp', '=', run.stamp).executeTakeFirst()).toEqual({
      name: 'Renamed',
      active: 0,
    });
  });

  it('models list (own and --general), rename, remove', async () => {
    const { model } = await seedProject(server);
    expect((await portal(['models', 'list'], { store })).stdout).toContain('Churn model');
    // The general models every account sees come with the server.
    expect((await portal(['models', 'list', '--general'], { store })).stdout).toContain('Tabular regression (general)');
    expect((await portal(['models', 'rename', model.stamp, '--name', 'M2'], { store })).code).toBe(0);
    expect((await portal(['models', 'list'], { store })).stdout).toContain('M2');
    expect((await portal(['models', 'remove', model.stamp, '--yes'], { store })).code).toBe(0);
    expect((await portal(['models', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noModels);
  });
});

describe('portal shrink / quotes / billing', { timeout: 60_000 }, () => {
  it('needs a single .py upload, then creates a quote shown with billing', async () => {
    const { project, upload } = await seedProject(server);
    const notPy = await portal(['shrink', '--upload', upload.stamp, '--name', 'S', '--yes'], { store });
    expect(notPy.code).toBe(1);
    expect(notPy.stderr.trim()).toBe(MESSAGES.shrinkSingleFile);
    // No free credit left: the quote has to be paid.
    await setCredit(server, server.user.client, 5_000_000, 5_000_000);
    await writeFile(join(dir, 'model.py'), PY_MODEL);
    const push = await portal(['uploads', 'push', 'model.py', '--wait', '--json', '--project', project.stamp], { store, cwd: dir });
    expect(push.code, push.stderr).toBe(0);
    const py = JSON.parse(push.stdout);
    expect(py.flight).toBe('Ready');
    const longDesc = await portal(['shrink', '--upload', py.stamp, '--name', 'S', '--desc', 'd'.repeat(301), '--yes'], { store });
    expect(longDesc.stderr.trim()).toBe(MESSAGES.description);
    const q = await portal(['shrink', '--upload', py.stamp, '--name', 'Shrink one', '--desc', 'first', '--yes', '--json'], { store });
    expect(q.code, q.stderr).toBe(0);
    const quote = JSON.parse(q.stdout);
    // The model's 262 parameters, none of them free: one started million at $0.22.
    expect(quote.quote.record).toMatchObject({ name: 'Shrink one', state: 'Unpaid', cent: 22 });
    const invoice = quote.quote.record.invoiceNum as string;
    expect(invoice).toMatch(/^INV-/);
    const portalUrl = `${server.url}/pay/${server.user.client}?`;
    expect(quote.billing.portalUrl.startsWith(portalUrl)).toBe(true);
    expect(
      await rows(server)
        .selectFrom('quotes')
        .select(['name', 'desc', 'state', 'cent', 'rend'])
        .where('stamp', '=', quote.quote.record.stamp)
        .executeTakeFirst(),
    ).toEqual({
      name: 'Shrink one',
      desc: 'first',
      state: 'Unpaid',
      cent: 22,
      rend: py.stamp,
    });
    const show = await portal(['quotes', 'show', quote.quote.record.stamp], { store, tty: true });
    const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(show.stdout).toMatch(/Invoice amount:\s+\$0\.22/);
    expect(show.stdout).toMatch(new RegExp(`Invoice ID:\\s+${escaped(invoice)}`));
    expect(show.stdout).toMatch(new RegExp(`Payment portal:\\s+${escaped(portalUrl)}`));
    expect(show.stdout).toMatch(/Request:\s+starts once the invoice is paid/);
    expect(show.stdout).toMatch(/Free credits:\s+5,000,000 of 5,000,000 input parameters used/);
    // It cannot be paid from the terminal: the command says where to pay.
    expect(show.stderr).toContain(`Pay $0.22 (invoice ${invoice}) at ${portalUrl}`);
    expect((await portal(['quotes', 'show', 'nope'], { store })).stderr.trim()).toBe(MESSAGES.requestNotFound);
  });

  it('billing shows credits and balance', async () => {
    await setCredit(server, server.user.client, 5_000_000, 500_000);
    // The outstanding balance is what the account's unpaid quotes add up to.
    const project = await seedEmptyProject(server);
    for (const [cent, state] of [
      [1000, 'Unpaid'],
      [234, 'Unpaid'],
      [999, 'Paid'],
    ] as const) {
      const q = await seedQuote(server, project.stamp, null, { cent, state });
      await setRow(server, 'quotes', q.stamp, { invoice_num: `INV-${q.stamp}` });
    }
    const r = await portal(['billing'], { store, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Free credits consumed:\s+500,000 of 5,000,000 input parameters/);
    expect(r.stdout).toMatch(/Outstanding balance:\s+\$12\.34/);
    expect(r.stdout).toContain(`${server.url}/pay/${server.user.client}?`);
  });
});
