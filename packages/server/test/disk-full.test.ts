// A full disk, for real: DATA_DIR on a small tmpfs filled up by another file. An upload then answers 507 with the
// sentence that names storage (not "interrupted", not a hang), the refusal is logged and counted, readiness says
// the disk is full until space is freed, and the same link takes the file once it is. Needs the right to mount a
// tmpfs (root): skipped with a notice otherwise. The database is PostgreSQL (elsewhere), so only storage fills.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CODES, MESSAGES } from '@portal/core';
import { call, dbKinds, signup, startServer, sha256, type TestServer } from './harness';

const mountPoint = mkdtempSync(join(tmpdir(), 'portal-full-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint]).status === 0;
if (!mounted) console.warn('\n*** Cannot mount a tmpfs here (not root): the full-disk test is SKIPPED. ***\n');
const pg = (await dbKinds()).includes('postgres');

describe.skipIf(!mounted || !pg)('a full disk (DATA_DIR on a small tmpfs)', () => {
  let srv: TestServer;
  const filler = join(mountPoint, 'filler');

  beforeAll(async () => {
    const dataDir = join(mountPoint, 'data');
    mkdirSync(dataDir);
    srv = await startServer('postgres', { dataDir });
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
  });

  const fill = () => {
    // Leaves less room than the upload below needs (dd stops at the end of the disk, which is the point).
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', 'count=64'], { stdio: 'ignore' });
  };

  it('answers 507 naming storage, counts and logs it, fails readiness until space is freed, then takes the file', async () => {
    const A = await signup(srv.url, 'full');
    const bucket = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Full' } })).body.bucket.stamp;
    const rend = (await call(srv.url, 'rendCreate', { token: A.token, body: { bucket, name: 'big.json' } })).body.rend.stamp;
    const bytes = Buffer.from(JSON.stringify(Array.from({ length: 30_000 }, (_, i) => [i, i % 7]))); // about 270 kB
    const reg = await call(srv.url, 'uploadRegister', {
      token: A.token,
      body: { rend, name: 'big.json', file: { name: 'big.json', size: bytes.length, checksum: sha256(bytes) } },
    });
    expect(reg.status).toBe(200);
    const put = () => fetch(reg.body.upload.url as string, { method: 'PUT', body: bytes, signal: AbortSignal.timeout(15_000) });

    fill();
    const refused = await put();
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual({ error: { code: ERROR_CODES.storageFull, message: MESSAGES.storageFull } });
    const ready = await fetch(`${srv.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.disk).toMatch(
      /^The disk of DATA_DIR .* is full \([\d.]+ MB free\): writes are refused until disk space is freed\.$/,
    );
    const metrics = await (await fetch(srv.metricsUrl!)).text();
    expect(metrics).toMatch(/portal_disk_full_total\{part="storage"\} 1/);
    expect(metrics).toMatch(/portal_disk_size_bytes 2\d{7}/);
    expect(metrics).toMatch(/portal_disk_free_bytes \d+/);

    await rm(filler);
    expect((await fetch(`${srv.url}/api/ready`)).status).toBe(200);
    const taken = await put();
    expect(taken.status).toBe(200);
  }, 60_000);
});

afterAll(() => {
  if (mounted) spawnSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});
