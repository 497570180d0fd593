import { createHash, randomFillSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, rows, seedEmptyProject, setPlan, withTestApi } from '@portal/testkit/api';
import { storedBytes } from '@portal/testkit/seed';
import { runUpload, type UploadProgress, type UploadSource } from '@portal/core';
import { fileSource } from '@portal/core/node';

const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// The real server (no worker: the pipeline ends where analysis begins), with the real storage behind its upload links.
const server = withTestApi({ worker: false });
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-upload-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let project: string;
beforeEach(async () => {
  // Enterprise allows files up to 10 MB; the Individual plan's 1 MB would refuse the larger files here.
  await setPlan(server, server.user.client, 'Enterprise');
  project = (await seedEmptyProject(server)).stamp;
});

function fileOf(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const randomBytes = (n: number) => randomFillSync(new Uint8Array(n));

/** The project's upload groups as the server's database holds them, removed ones included. */
const uploadRows = () =>
  rows(server).selectFrom('rends').select(['stamp', 'name', 'flight', 'active']).where('bucket', '=', project).execute();
const itemRows = (upload: string) =>
  rows(server)
    .selectFrom('uploads')
    .select(['stamp', 'name', 'state', 'checksum', 'size', 'stored', 'error'])
    .where('rend', '=', upload)
    .orderBy('seq')
    .execute();
const puts = () => server.calls.filter((c) => c === 'storagePut');

describe('runUpload against the real server', { timeout: 60_000 }, () => {
  it('creates the group, registers, stores verified bytes, finishes each item and the group, reporting progress', async () => {
    const a = randomBytes(2.5 * 1024 * 1024);
    const b = randomBytes(1000);
    const progress: UploadProgress[] = [];
    const result = await runUpload(apiClient(server), {
      project,
      files: [fileSource(fileOf('first.json', a)), fileSource(fileOf('second.json', b))],
      onProgress: (p) => progress.push(p),
    });
    expect(server.calls).toEqual([
      'rendCreate',
      'uploadRegister',
      'storagePut',
      'uploadFinish',
      'uploadRegister',
      'storagePut',
      'uploadFinish',
      'rendFinish',
    ]);
    // One group, named after its files, now processing (analysis would follow).
    expect(await uploadRows()).toEqual([{ stamp: result.upload, name: 'first.json (+1 more)', flight: 'Processing', active: 1 }]);
    expect(result.group).toMatchObject({ stamp: result.upload, flight: 'Processing' });
    const items = await itemRows(result.upload);
    expect(result.files.map((f) => [f.name, f.upload, f.checksum])).toEqual([
      ['first.json', items[0].stamp, hex(a)],
      ['second.json', items[1].stamp, hex(b)],
    ]);
    // Registered with their size and checksum, finished (waiting for analysis), and their bytes in the storage.
    expect(items.map((i) => [i.name, i.size, i.checksum, i.state, i.stored])).toEqual([
      ['first.json', a.length, hex(a), 'Preparing', 1],
      ['second.json', b.length, hex(b), 'Preparing', 1],
    ]);
    expect(await storedBytes(server, items[0].stamp)).toEqual({ size: a.length, sha256: hex(a) });
    expect(await storedBytes(server, items[1].stamp)).toEqual({ size: b.length, sha256: hex(b) });
    const first = progress.filter((p) => p.index === 0);
    expect(first[0]).toEqual({ file: 'first.json', index: 0, loaded: 0, total: a.length });
    expect(first.at(-1)).toEqual({ file: 'first.json', index: 0, loaded: a.length, total: a.length });
    // Progress moves through the file, never backwards within one try.
    expect(first.length).toBeGreaterThan(3);
    expect(first.every((p, i) => i === 0 || p.loaded >= first[i - 1].loaded)).toBe(true);
    expect(progress.filter((p) => p.index === 1).at(-1)?.loaded).toBe(b.length);
  });

  it('retries a PUT that fails once and succeeds on the second try', async () => {
    server.fail('storagePut', { times: 1, status: 503 });
    const bytes = randomBytes(5000);
    const source: UploadSource = new File([bytes], 'retry.json');
    const result = await runUpload(apiClient(server), { project, files: [source], backoffMs: 10 });
    expect(puts()).toHaveLength(2);
    expect(result.files[0].checksum).toBe(hex(bytes));
    expect(await storedBytes(server, result.files[0].upload)).toEqual({ size: 5000, sha256: hex(bytes) });
    expect(server.calls.at(-1)).toBe('rendFinish');
    expect((await itemRows(result.upload)).map((i) => i.state)).toEqual(['Preparing']);
  });

  it('carries on when a retried PUT finds the bytes already stored (the first answer was lost)', async () => {
    // The storage takes the first PUT's bytes, but its answer never reaches the client; the retry is refused as a repeat.
    server.fail('storagePut', { lost: true });
    const bytes = randomBytes(4000);
    const result = await runUpload(apiClient(server), { project, files: [new File([bytes], 'lost.json')], backoffMs: 5 });
    expect(server.calls).toEqual(['rendCreate', 'uploadRegister', 'storagePut', 'storagePut', 'uploadFinish', 'rendFinish']);
    const [item] = await itemRows(result.upload);
    expect(result.files[0].upload).toBe(item.stamp);
    expect(await storedBytes(server, item.stamp)).toEqual({ size: 4000, sha256: hex(bytes) });
    expect(item.state).toBe('Preparing');
    expect(result.group?.flight).toBe('Processing');
  });

  it('gives up after three tries with "Failed to upload files." and removes the half-made group', async () => {
    server.fail('storagePut', { times: 5, status: 503 });
    const err = await runUpload(apiClient(server), { project, files: [new File([randomBytes(10)], 'x.json')], backoffMs: 5 }).catch(
      (e) => e,
    );
    expect(err.display).toBe('Failed to upload files.');
    expect(err.status).toBe(503);
    expect(err.serverMessage).toBe('Simulated failure');
    expect(puts()).toHaveLength(3);
    expect(server.calls).toContain('rendRemove');
    expect(server.calls).not.toContain('uploadFinish');
    expect(server.calls).not.toContain('rendFinish');
    const [upload] = await uploadRows();
    expect(upload).toMatchObject({ name: 'x.json', flight: 'Pending', active: 0 });
    expect(await storedBytes(server, (await itemRows(upload.stamp))[0].stamp)).toBeNull();
  });

  it('does not retry a refusal the storage would repeat', async () => {
    // Registered with another file's checksum: the storage reads the bytes, finds them different and refuses them.
    const err = await runUpload(apiClient(server), {
      project,
      files: [new File([randomBytes(10)], 'x.json')],
      hash: async () => hex(randomBytes(10)),
      backoffMs: 5,
    }).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.display).toBe('Failed to upload files.');
    expect(err.serverMessage).toMatch(/SHA-256 checksum differs/);
    expect(puts()).toHaveLength(1);
    const [upload] = await uploadRows();
    expect(upload.active).toBe(0);
    const [item] = await itemRows(upload.stamp);
    expect([item.state, item.stored]).toEqual(['Failed', 0]);
    expect(await storedBytes(server, item.stamp)).toBeNull();
  });

  it('stops when cancelled mid-PUT, without finishing, and removes the group', async () => {
    // The storage PUT is held on its way, so the cancel lands while the bytes are in flight.
    server.storageDelayMs = 2_000;
    const controller = new AbortController();
    // Cancelled once bytes are flowing and the PUT has reached the storage's side.
    const cancel = setInterval(() => {
      if (sent && server.calls.includes('storagePut')) controller.abort();
    }, 5);
    let sent = false;
    const bytes = randomBytes(8 * 1024 * 1024);
    const err = await runUpload(apiClient(server), {
      project,
      files: [fileSource(fileOf('cancel.json', bytes))],
      signal: controller.signal,
      onProgress: (p) => void (sent ||= p.loaded > 0),
    })
      .catch((e) => e)
      .finally(() => clearInterval(cancel));
    expect(err.name).toBe('AbortError');
    expect(server.calls).toContain('storagePut');
    expect(server.calls).not.toContain('uploadFinish');
    expect(server.calls).not.toContain('rendFinish');
    await expect.poll(() => server.calls.includes('rendRemove')).toBe(true);
    await expect.poll(async () => (await uploadRows())[0]?.active).toBe(0);
    const [item] = await itemRows((await uploadRows())[0].stamp);
    expect(item.state).toBe('Pending');
    expect(await storedBytes(server, item.stamp)).toBeNull();
  });

  it('removes the group when cancelled while the group is being made (its answer arrives after the cancel)', async () => {
    const controller = new AbortController();
    const api = apiClient(server);
    const make = api.calls.rendCreate;
    // The server makes the group, and the cancel comes before its answer: a call that honoured the signal would throw
    // that answer away, and with it the only name of the group to remove.
    api.calls.rendCreate = async (args, options) => {
      const made = await make(args);
      controller.abort();
      if (options?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      return made;
    };
    const err = await runUpload(api, {
      project,
      files: [fileSource(fileOf('early.json', randomBytes(1000)))],
      signal: controller.signal,
    }).catch((e) => e);
    expect(err.name).toBe('AbortError');
    expect(server.calls).not.toContain('uploadRegister');
    expect(server.calls).toContain('rendRemove');
    expect((await uploadRows()).map((r) => r.active)).toEqual([0]);
  });

  it('refuses an empty file list with the upload failure message', async () => {
    await expect(runUpload(apiClient(server), { project, files: [] })).rejects.toMatchObject({ display: 'Failed to upload files.' });
    expect(server.calls).toEqual([]);
    expect(await uploadRows()).toEqual([]);
  });
});
