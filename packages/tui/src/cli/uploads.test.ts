import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, UPLOAD_CONTEXTS } from '@portal/core';
import { portal } from '../testing/cli';
import { fakeToken, seedProject, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { memoryStore } from '../store';

let api: FakeApi;
let store: ReturnType<typeof memoryStore>;
let dir: string;
beforeEach(async () => {
  api = await startFakeApi();
  store = memoryStore({ token: fakeToken('ada_l'), api: api.url });
  dir = await mkdtemp(join(tmpdir(), 'portal-cli-'));
});
afterEach(async () => {
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('portal uploads', () => {
  it('pushes files (register, PUT with the checksum, finish) and waits for Ready', async () => {
    const { bucket } = seedProject(api.state);
    await writeFile(join(dir, 'a.json'), JSON.stringify([[1, 2, 3, 4]]));
    await writeFile(join(dir, 'b.txt'), 'hello');
    const r = await portal(['uploads', 'push', 'a.json', 'b.txt', '--wait', '--json'], { store, cwd: dir });
    expect(r.code).toBe(0);
    const rend = JSON.parse(r.stdout);
    expect(rend).toMatchObject({ name: 'a.json (+1 more)', flight: 'Ready' });
    expect(rend.upload.list.map((u: { name: string }) => u.name)).toEqual(['a.json', 'b.txt']);
    expect(r.stderr).toContain(MESSAGES.uploadSucceeded('a.json'));
    expect(r.stderr).toContain(MESSAGES.uploadSucceeded('b.txt'));
    expect(r.stderr).toMatch(/a\.json \[=+\] 100%/);
    expect(Object.values(api.state.stored).map((s) => s.size)).toEqual([11, 5]);
    expect(api.state.rends.filter((x) => x.bucket === bucket.stamp)).toHaveLength(2);
    const list = await portal(['uploads', 'list'], { store });
    expect(list.stdout).toContain('a.json (+1 more)');
  });

  it('refuses a wrong extension, a file too large and a missing file with SPEC text', async () => {
    seedProject(api.state);
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
    expect(api.state.calls).not.toContain('rendCreate');
  });

  it('a project known by its id needs no look-up: only the upload calls are made, and the answer is the finished group', async () => {
    const { bucket } = seedProject(api.state);
    await writeFile(join(dir, 'a.json'), '[[1,2,3,4]]');
    api.state.calls.length = 0;
    const r = await portal(['uploads', 'push', 'a.json', '--project', bucket.stamp, '--json'], { store, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'a.json', upload: { list: [{ name: 'a.json' }] } });
    expect(api.state.calls).toEqual(['rendCreate', 'uploadRegister', 'storagePut', 'uploadFinish', 'rendFinish']);
  });

  it('--project given by name, or a default project removed since, is found through the account', async () => {
    const { bucket } = seedProject(api.state);
    await writeFile(join(dir, 'a.json'), '[[1,2,3,4]]');
    const byName = await portal(['uploads', 'push', 'a.json', '--project', bucket.name, '--json'], { store, cwd: dir });
    expect(byName.code, byName.stderr).toBe(0);
    expect(api.state.rends.filter((x) => x.bucket === bucket.stamp && x.name === 'a.json')).toHaveLength(1);
    store.set('project', 'b_removed_since');
    const stale = await portal(['uploads', 'push', 'a.json', '--json'], { store, cwd: dir });
    expect(stale.code, stale.stderr).toBe(0);
    expect(api.state.rends.filter((x) => x.bucket === bucket.stamp && x.name === 'a.json')).toHaveLength(2);
    const unknown = await portal(['uploads', 'push', 'a.json', '--project', 'Nowhere'], { store, cwd: dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('No project Nowhere in Analytical Engines (see portal projects list)');
  });

  it('a file over the plan limit pushed to a project known by id: the server refuses it, SPEC text, nothing left behind', async () => {
    const { bucket } = seedProject(api.state);
    await writeFile(join(dir, 'big.json'), Buffer.alloc(1024 * 1024 + 1));
    const big = await portal(['uploads', 'push', 'big.json', '--project', bucket.stamp], { store, cwd: dir });
    expect(big.code).toBe(1);
    expect(big.stderr.trim()).toBe(MESSAGES.fileTooLarge);
    expect(api.state.rends.filter((x) => x.name === 'big.json' && x.active === 1)).toEqual([]);
    // Several files, one of them over the Individual limit: the plan is checked before anything is sent.
    await writeFile(join(dir, 'small.json'), '[[1,2,3,4]]');
    api.state.calls.length = 0;
    const two = await portal(['uploads', 'push', 'small.json', 'big.json', '--project', bucket.stamp], { store, cwd: dir });
    expect(two.code).toBe(1);
    expect(two.stderr.trim()).toBe(MESSAGES.fileTooLarge);
    expect(api.state.calls).not.toContain('rendCreate');
  });

  it('Ctrl+C cancels the push and removes the half-made upload', async () => {
    seedProject(api.state);
    await writeFile(join(dir, 'a.json'), '[[1,2,3,4]]');
    const r = await portal(['uploads', 'push', 'a.json'], { store, cwd: dir, onInterrupt: (press) => press() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(MESSAGES.uploadCancelled);
    const made = api.state.rends.filter((x) => x.name === 'a.json');
    expect(made.every((x) => x.active === 0)).toBe(true);
  });

  it('renames and removes uploads', async () => {
    const { rend } = seedProject(api.state);
    expect((await portal(['uploads', 'rename', rend.stamp, '--name', 'March'], { store })).code).toBe(0);
    expect((await portal(['uploads', 'remove', rend.stamp, '--yes'], { store })).code).toBe(0);
    expect((await portal(['uploads', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noUploads);
  });
});

describe('portal fit / runs / models', () => {
  it('creates a fit request, follows it and downloads the results', async () => {
    const { rend } = seedProject(api.state);
    const r = await portal(['fit', '--upload', rend.stamp, '--inputs', '3', '--outputs', '5', '--target', '1', '--name', 'Fit one', '--wait', '--json'], { store });
    expect(r.code).toBe(0);
    const status = JSON.parse(r.stdout);
    expect(status.run.record).toMatchObject({ name: 'Fit one', function: 'generate', state: 'Finished' });
    expect(api.state.calls.filter((c) => c === 'runCreate')).toHaveLength(2);
    expect(api.state.calls).toContain('pileCreate');

    const now = new Date(2026, 10, 21, 9, 5, 7).getTime();
    const d = await portal(['runs', 'download', status.run.record.stamp], { store, cwd: dir, now });
    expect(d.code).toBe(0);
    expect(await readdir(dir)).toEqual(['ensemble_result_2026-11-21_09-05-07.json']);
    expect(JSON.parse(await readFile(join(dir, 'ensemble_result_2026-11-21_09-05-07.json'), 'utf8'))).toEqual([[0.25, 0.5], [0.75, 1]]);

    const list = await portal(['runs', 'list'], { store, tty: true });
    expect(list.stdout.split('\n')[0]).toMatch(/^NAME\s+ID\s+FUNCTION\s+STATUS\s+MESSAGE\s+CREATED\s+UPLOAD$/);
    expect(list.stdout).toContain('Fit one');
  });

  it('checks the plan limits, the numbers and the upload', async () => {
    const { rend } = seedProject(api.state);
    const over = await portal(['fit', '--upload', rend.stamp, '--inputs', '4', '--outputs', '5', '--target', '1'], { store });
    expect(over.code).toBe(1);
    expect(over.stderr.trim()).toBe(MESSAGES.planLimitInputs('Individual', 3));
    const explain = await portal(['fit', '--upload', rend.stamp, '--inputs', '3', '--outputs', '5', '--target', '1', '--explain'], { store });
    expect(explain.stderr.trim()).toBe(MESSAGES.explainabilityNotAllowed);
    const nan = await portal(['fit', '--upload', rend.stamp, '--inputs', 'three', '--outputs', '5', '--target', '1'], { store });
    expect(nan.code).toBe(2);
    expect(nan.stderr).toContain('--inputs must be a whole number');
    Object.assign(rend.upload.list[0], { name: 'data.txt' });
    const noJson = await portal(['fit', '--upload', rend.stamp, '--inputs', '3', '--outputs', '5', '--target', '1'], { store });
    expect(noJson.code).toBe(1);
    expect(noJson.stderr.trim()).toBe(MESSAGES.generateFileNotFound);
    Object.assign(rend.upload.list[0], { name: 'data.json' });
    const unknown = await portal(['fit', '--upload', 'nope', '--inputs', '3', '--outputs', '5', '--target', '1'], { store });
    expect(unknown.stderr.trim()).toBe(MESSAGES.uploadNotFound);
    const missing = await portal(['fit', '--upload', rend.stamp, '--inputs', '3'], { store });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--outputs is required');
  });

  it('runs show: Request not found for an unknown id; rename and remove', async () => {
    const { run } = seedProject(api.state);
    const nf = await portal(['runs', 'show', 'nope'], { store });
    expect(nf.code).toBe(1);
    expect(nf.stderr.trim()).toBe(MESSAGES.requestNotFound);
    const show = await portal(['runs', 'show', run.stamp], { store });
    expect(show.stdout).toContain(`ID\t${run.stamp}`);
    expect((await portal(['runs', 'rename', run.stamp, '--name', 'Renamed'], { store })).code).toBe(0);
    expect((await portal(['runs', 'remove', run.stamp, '--yes'], { store })).code).toBe(0);
    expect((await portal(['runs', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noRequests);
  });

  it('models list (own and --general), rename, remove', async () => {
    const { model } = seedProject(api.state);
    expect((await portal(['models', 'list'], { store })).stdout).toContain('Churn model');
    expect((await portal(['models', 'list', '--general'], { store })).stdout).toContain('General text');
    expect((await portal(['models', 'rename', model.stamp, '--name', 'M2'], { store })).code).toBe(0);
    expect((await portal(['models', 'remove', model.stamp, '--yes'], { store })).code).toBe(0);
    expect((await portal(['models', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noModels);
  });
});

describe('portal shrink / quotes / billing', () => {
  it('needs a single .py upload, then creates a quote shown with billing', async () => {
    const { bucket, rend } = seedProject(api.state);
    const notPy = await portal(['shrink', '--upload', rend.stamp, '--name', 'S'], { store });
    expect(notPy.code).toBe(1);
    expect(notPy.stderr.trim()).toBe(MESSAGES.shrinkSingleFile);
    await writeFile(join(dir, 'model.py'), 'print(1)\n');
    const push = await portal(['uploads', 'push', 'model.py', '--json', '--project', bucket.stamp], { store, cwd: dir });
    const py = JSON.parse(push.stdout);
    const longDesc = await portal(['shrink', '--upload', py.stamp, '--name', 'S', '--desc', 'd'.repeat(301)], { store });
    expect(longDesc.stderr.trim()).toBe(MESSAGES.description);
    const q = await portal(['shrink', '--upload', py.stamp, '--name', 'Shrink one', '--desc', 'first', '--json'], { store });
    expect(q.code).toBe(0);
    const quote = JSON.parse(q.stdout);
    expect(quote.quote.record).toMatchObject({ name: 'Shrink one', state: 'Unpaid', cent: 22 });
    expect(quote.billing.portalUrl).toBe('http://pay.example/portal');
    const show = await portal(['quotes', 'show', quote.quote.record.stamp], { store, tty: true });
    expect(show.stdout).toMatch(/Invoice amount:\s+\$0\.22/);
    expect(show.stdout).toMatch(/Invoice ID:\s+INV-0001/);
    expect(show.stdout).toMatch(/Payment portal:\s+http:\/\/pay\.example\/portal/);
    expect(show.stdout).toMatch(/Request:\s+starts once the invoice is paid/);
    expect(show.stdout).toMatch(/Free credits:\s+500,000 of 5,000,000 input parameters used/);
    // It cannot be paid from the terminal: the command says where to pay.
    expect(show.stderr).toContain('Pay $0.22 (invoice INV-0001) at http://pay.example/portal');
    expect((await portal(['quotes', 'show', 'nope'], { store })).stderr.trim()).toBe(MESSAGES.requestNotFound);
  });

  it('billing shows credits and balance', async () => {
    const r = await portal(['billing'], { store, tty: true });
    expect(r.stdout).toMatch(/Free credits consumed:\s+500,000 of 5,000,000 input parameters/);
    expect(r.stdout).toMatch(/Outstanding balance:\s+\$12\.34/);
  });
});
