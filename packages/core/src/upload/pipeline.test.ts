import { createHash, randomFillSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, memoryTokenStore } from '../client';
import { fileSource, sha256File } from '../node';
import { jwt, make, startServer, type TestServer } from '../testing/server';
import { runUpload, uploadGroupName } from './pipeline';
import { sha256Stream } from './hash';
import type { UploadProgress, UploadSource } from './types';

const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

interface Stored {
  size: number;
  checksum: string;
  bytes?: Buffer;
}

/** A storage-and-API server with the few endpoints the pipeline uses, checking bytes like the real one. */
async function uploadServer(opts: { failPuts?: number; putStatus?: number; dropAnswer?: boolean } = {}) {
  const stored = new Map<string, Stored>();
  const calls: string[] = [];
  let failPuts = opts.failPuts ?? 0;
  const server = await startServer({
    'PUT /api/rend/item': (req) => {
      const name = (req.body as { name: string }).name;
      calls.push(`rend:create:${name}`);
      return { json: { rend: make.rend({ stamp: 'rend1', name }) } };
    },
    'PUT /api/upload/item': (req) => {
      const b = req.body as { name: string; file: { checksum: string; size: number } };
      const stamp = `up${stored.size + 1}`;
      stored.set(stamp, { size: b.file.size, checksum: b.file.checksum });
      calls.push(`upload:register:${b.name}`);
      return { json: { upload: { ...make.item({ stamp, name: b.name, file: { ...b.file, name: b.name } }), url: `/api/storage/${stamp}?sig=abc` } } };
    },
    'PUT /api/storage/*': async (req, res) => {
      const stamp = req.path.split('/').pop()!;
      calls.push(`put:${stamp}`);
      if (failPuts > 0) {
        failPuts--;
        return { status: opts.putStatus ?? 503, json: { error: { code: 'internal', message: 'Storage busy' } } };
      }
      const want = stored.get(stamp)!;
      if (want.bytes) return { status: 409, json: { error: { code: 'conflict', message: 'This file has already been received.' } } };
      if (req.raw.length !== want.size || hex(req.raw) !== want.checksum) {
        return { status: 400, json: { error: { code: 'invalid_input', message: 'Length or checksum differs' } } };
      }
      want.bytes = req.raw;
      if (opts.dropAnswer) {
        opts.dropAnswer = false;
        res.destroy();
        return 'handled';
      }
      res.writeHead(200).end();
      return 'handled';
    },
    'POST /api/upload/finish': (req) => {
      const stamp = (req.body as { upload: string }).upload;
      calls.push(`upload:finish:${stamp}`);
      return { json: { upload: make.item({ stamp, state: 'Finished' }) } };
    },
    'POST /api/rend/finish': () => {
      calls.push('rend:finish');
      return { json: { rend: make.rend({ stamp: 'rend1', flight: 'Processing' }) } };
    },
    'POST /api/rend/remove': () => {
      calls.push('rend:remove');
      return { json: { ok: true } };
    },
  });
  return { server, stored, calls };
}

const servers: TestServer[] = [];
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-upload-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function clientFor(server: TestServer) {
  servers.push(server);
  return new ApiClient({ baseUrl: server.url, tokens: memoryTokenStore(jwt(Math.floor(Date.now() / 1000) + 3600)) });
}

function fileOf(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const randomBytes = (n: number) => randomFillSync(new Uint8Array(n));

describe('uploadGroupName', () => {
  it('is the first file name, with a suffix for extra files', () => {
    expect(uploadGroupName([{ name: 'a.json' }])).toBe('a.json');
    expect(uploadGroupName([{ name: 'a.json' }, { name: 'b.json' }])).toBe('a.json (+1 more)');
    expect(uploadGroupName([{ name: 'a.json' }, { name: 'b' }, { name: 'c' }])).toBe('a.json (+2 more)');
  });
  it('stays within the 60-character title limit', () => {
    const long = `${'x'.repeat(80)}.json`;
    const name = uploadGroupName([{ name: long }, { name: 'b' }]);
    expect(name.length).toBeLessThanOrEqual(60);
    expect(name.endsWith(' (+1 more)')).toBe(true);
  });
});

describe('hashing', () => {
  it('streams the same SHA-256 as an in-memory digest, on disk and from a Blob', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const path = fileOf('hash.bin', bytes);
    expect(await sha256File(path)).toBe(hex(bytes));
    const blob = new File([bytes], 'hash.bin');
    expect(await sha256Stream(blob)).toBe(hex(bytes));
    // Beyond the Web Crypto size the incremental hash takes over.
    const big = randomBytes(33 * 1024 * 1024);
    expect(await sha256Stream(new File([big], 'big.bin'))).toBe(hex(big));
  });
  it('hashes an empty file', async () => {
    expect(await sha256File(fileOf('empty.bin', new Uint8Array(0)))).toBe(hex(new Uint8Array(0)));
  });
});

describe('runUpload against a local server', () => {
  it('creates the group, registers, stores verified bytes, finishes each item and the group, reporting progress', async () => {
    const { server, stored, calls } = await uploadServer();
    const api = clientFor(server);
    const a = randomBytes(2.5 * 1024 * 1024);
    const b = randomBytes(1000);
    const progress: UploadProgress[] = [];
    const result = await runUpload(api, {
      bucket: 'b1',
      files: [fileSource(fileOf('first.json', a)), fileSource(fileOf('second.json', b))],
      onProgress: (p) => progress.push(p),
    });
    expect(calls).toEqual([
      'rend:create:first.json (+1 more)',
      'upload:register:first.json', 'put:up1', 'upload:finish:up1',
      'upload:register:second.json', 'put:up2', 'upload:finish:up2',
      'rend:finish',
    ]);
    expect(result.rend).toBe('rend1');
    expect(result.files.map((f) => [f.name, f.upload, f.checksum])).toEqual([
      ['first.json', 'up1', hex(a)],
      ['second.json', 'up2', hex(b)],
    ]);
    expect(Buffer.compare(stored.get('up1')!.bytes!, Buffer.from(a))).toBe(0);
    const first = progress.filter((p) => p.index === 0);
    expect(first[0]).toEqual({ file: 'first.json', index: 0, loaded: 0, total: a.length });
    expect(first.at(-1)).toEqual({ file: 'first.json', index: 0, loaded: a.length, total: a.length });
    // Progress moves through the file, never backwards within one try.
    expect(first.length).toBeGreaterThan(3);
    expect(first.every((p, i) => i === 0 || p.loaded >= first[i - 1].loaded)).toBe(true);
    expect(progress.filter((p) => p.index === 1).at(-1)?.loaded).toBe(b.length);
  });

  it('retries a PUT that fails once and succeeds on the second try', async () => {
    const { server, stored, calls } = await uploadServer({ failPuts: 1 });
    const api = clientFor(server);
    const bytes = randomBytes(5000);
    const source: UploadSource = new File([bytes], 'retry.json');
    const result = await runUpload(api, { bucket: 'b1', files: [source], backoffMs: 10 });
    expect(calls.filter((c) => c.startsWith('put:'))).toEqual(['put:up1', 'put:up1']);
    expect(result.files[0].checksum).toBe(hex(bytes));
    expect(stored.get('up1')!.bytes!.length).toBe(5000);
    expect(calls.at(-1)).toBe('rend:finish');
  });

  it('carries on when a retried PUT finds the bytes already stored (the first answer was lost)', async () => {
    const { server, stored, calls } = await uploadServer({ dropAnswer: true });
    const api = clientFor(server);
    const bytes = randomBytes(4000);
    const result = await runUpload(api, { bucket: 'b1', files: [new File([bytes], 'lost.json')], backoffMs: 5 });
    expect(calls).toEqual(['rend:create:lost.json', 'upload:register:lost.json', 'put:up1', 'put:up1', 'upload:finish:up1', 'rend:finish']);
    expect(stored.get('up1')!.bytes!.length).toBe(4000);
    expect(result.files[0].upload).toBe('up1');
  });

  it('gives up after three tries with "Failed to upload files." and removes the half-made group', async () => {
    const { server, calls } = await uploadServer({ failPuts: 5 });
    const api = clientFor(server);
    const err = await runUpload(api, { bucket: 'b1', files: [new File([randomBytes(10)], 'x.json')], backoffMs: 5 }).catch((e) => e);
    expect(err.display).toBe('Failed to upload files.');
    expect(err.serverMessage).toBe('Storage busy');
    expect(calls.filter((c) => c.startsWith('put:'))).toHaveLength(3);
    expect(calls).toContain('rend:remove');
    expect(calls).not.toContain('rend:finish');
  });

  it('does not retry a refusal the storage would repeat', async () => {
    const { server, calls } = await uploadServer({ failPuts: 1, putStatus: 413 });
    const api = clientFor(server);
    const err = await runUpload(api, { bucket: 'b1', files: [new File([randomBytes(10)], 'x.json')], backoffMs: 5 }).catch((e) => e);
    expect(err.status).toBe(413);
    expect(calls.filter((c) => c.startsWith('put:'))).toHaveLength(1);
  });

  it('stops when cancelled mid-PUT, without finishing, and removes the group', async () => {
    const { server, calls } = await uploadServer();
    const api = clientFor(server);
    const controller = new AbortController();
    const bytes = randomBytes(8 * 1024 * 1024);
    const err = await runUpload(api, {
      bucket: 'b1',
      files: [fileSource(fileOf('cancel.json', bytes))],
      signal: controller.signal,
      onProgress: (p) => {
        if (p.loaded > 0) controller.abort();
      },
    }).catch((e) => e);
    expect(err.name).toBe('AbortError');
    expect(calls).not.toContain('upload:finish:up1');
    expect(calls).not.toContain('rend:finish');
    await expect.poll(() => calls.includes('rend:remove')).toBe(true);
  });

  it('refuses an empty file list with the upload failure message', async () => {
    const { server, calls } = await uploadServer();
    const api = clientFor(server);
    await expect(runUpload(api, { bucket: 'b1', files: [] })).rejects.toMatchObject({ display: 'Failed to upload files.' });
    expect(calls).toEqual([]);
  });
});

describe('sha256File', () => {
  it('stops when cancelled', async () => {
    const path = fileOf('abort.bin', randomBytes(6 * 1024 * 1024));
    const controller = new AbortController();
    controller.abort();
    await expect(sha256File(path, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
  it('says clearly when a path is missing or not a file', () => {
    expect(() => fileSource(join(dir, 'missing.json'))).toThrow(`File not found: ${join(dir, 'missing.json')}`);
    expect(() => fileSource(dir)).toThrow(`Not a file: ${dir}`);
  });
  it('gives a file source its name, size and a matching hash', async () => {
    const bytes = randomBytes(1234);
    const source = fileSource(fileOf('named.json', bytes), 'shown.json');
    expect([source.name, source.size]).toEqual(['shown.json', 1234]);
    expect(await sha256Stream(source)).toBe(hex(bytes));
  });
});
