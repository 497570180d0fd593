// Stored bytes hold against a replayed or late upload link, on the local store and on S3 (s3rver), on both databases;
// the bucket gets its CORS rule; readiness names a missing bucket; the sweep deletes what failed or was removed, only that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { CreateBucketCommand, DeleteBucketCommand, GetBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { call, dbKinds, fitData, sha256, signup, startServer, testSecret, waitFor, type DbKind, type TestServer } from './harness';
import { now } from '../src/ids';
import { loadConfig } from '../src/config';
import { uploadKey } from '../src/uploads';
import { sweepStorage } from '../src/storage/index';
import { LINK_EXPIRED, LINK_USED } from '../src/storage/messages';
import { missingCors, openS3Storage, portalCorsRule, S3Storage, stagingKey } from '../src/storage/s3';

const kinds = await dbKinds();
const ORIGIN = 'http://portal.test:8080';
type Store = 'local' | 's3';

interface S3Sandbox {
  endpoint: string;
  url(bucket: string): string;
  client: S3Client;
  close(): Promise<void>;
}

async function startS3(): Promise<S3Sandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const addr = await server.run();
  const endpoint = `http://127.0.0.1:${addr.port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    client,
    url: (bucket) =>
      `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`,
    async close() {
      client.destroy();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let bucketSeq = 0;
const freshBucketName = () => `portal-t${process.pid}-${Date.now().toString(36)}-${bucketSeq++}`;

/** The same digits moved about: a file of the same length and shape whose targets no longer follow from its inputs. */
const swapDigits = (b: Buffer) => Buffer.from(b.toString().replace(/\d/g, (d) => String((Number(d) * 7 + 3) % 10)));

describe.each(kinds.flatMap((db) => (['local', 's3'] as Store[]).map((store) => [db, store] as [DbKind, Store])))(
  'stored bytes on the %s database, %s store',
  (db, store) => {
    let s3: S3Sandbox | undefined;
    let srv: TestServer;
    let storageUrl: string | undefined;

    beforeAll(async () => {
      if (store === 's3') {
        s3 = await startS3();
        storageUrl = s3.url(freshBucketName());
      }
      // Local links point at the server itself; with S3 only the bucket's CORS rule sees the portal's origin.
      srv = await startServer(db, { storageUrl, publicUrl: store === 's3' ? ORIGIN : undefined });
    });
    afterAll(async () => {
      await srv?.close();
      await s3?.close();
    });

    const base = () => srv.url;
    const storage = () => srv.built.services.storage;
    const put = (url: string, bytes: Buffer) =>
      fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/json' } });

    async function makeProject(label: string) {
      const A = await signup(base(), label);
      const project = (await call(base(), 'bucketCreate', { token: A.token, body: { client: A.client, name: label } })).body.bucket
        .stamp as string;
      return { ...A, project };
    }

    async function register(token: string, upload: string, name: string, bytes: Buffer) {
      const reg = await call(base(), 'uploadRegister', {
        token,
        body: { rend: upload, name, file: { name, size: bytes.length, checksum: sha256(bytes) } },
      });
      expect(reg.status).toBe(200);
      return reg.body.upload as { stamp: string; url: string; expiresAt: number };
    }

    /** One file through the whole flow; returns the settled group and the item's upload URL. */
    async function uploadOne(token: string, project: string, name: string, bytes: Buffer) {
      const upload = (await call(base(), 'rendCreate', { token, body: { bucket: project, name } })).body.rend.stamp as string;
      const item = await register(token, upload, name, bytes);
      expect((await put(item.url, bytes)).status).toBe(200);
      const fin = await call(base(), 'uploadFinish', { token, body: { upload: item.stamp } });
      expect(fin.status).toBe(200);
      await call(base(), 'rendFinish', { token, body: { rend: upload } });
      const settled = await waitFor(async () => {
        const list = await call(base(), 'rendList', { token, query: { bucket: project } });
        const r = list.body.rend.list.find((x: { stamp: string }) => x.stamp === upload);
        return r && r.flight !== 'Pending' && r.flight !== 'Processing' ? r : null;
      });
      return { upload, item, settled };
    }

    async function stored(id: string): Promise<Buffer | null> {
      if (!(await storage().stat(uploadKey(id)))) return null;
      const copy = await storage().localCopy(uploadKey(id));
      try {
        return await readFile(copy.path);
      } finally {
        await copy.done();
      }
    }

    it('replaying the signed URL with other bytes of the same length after Ready changes nothing a fit reads', async () => {
      const A = await makeProject('replay');
      const data = fitData(400, 2);
      const swapped = swapDigits(data);
      expect(swapped.length).toBe(data.length);
      expect(sha256(swapped)).not.toBe(sha256(data));

      const { upload, item, settled } = await uploadOne(A.token, A.project, 'train.json', data);
      expect(settled.flight).toBe('Ready');

      const replay = await put(item.url, swapped);
      if (store === 'local') {
        expect(replay.status).toBe(409);
        expect((await replay.json()).error.message).toBe(LINK_USED);
      } else {
        // The link still writes, but only to its staging key: nothing reads that any more.
        expect(replay.status).toBe(200);
      }
      // Finishing again reports the item as it is: the replayed bytes are not taken.
      const again = await call(base(), 'uploadFinish', { token: A.token, body: { upload: item.stamp } });
      expect(again.status).toBe(200);
      expect(again.body.upload.state).toBe('Finished');
      expect(sha256((await stored(item.stamp))!)).toBe(sha256(data));

      const pile = (
        await call(base(), 'pileCreate', {
          token: A.token,
          body: {
            bucket: A.project,
            variety: 'FitModel',
            param: { explainability: false, input_column_size: 2, output_column_size: 2, task_target_size: 1, task: 'regression' },
          },
        })
      ).body.pile.stamp;
      const fit = (
        await call(base(), 'runCreate', { token: A.token, body: { bucket: A.project, function: 'fit', rend: upload, pile, name: 'fit' } })
      ).body.run.stamp;
      const status = await waitFor(async () => {
        const r = (await call(base(), 'runStatus', { token: A.token, query: { run: fit } })).body;
        return ['Finished', 'Failed'].includes(r.run.record.state) ? r : null;
      }, 60_000);
      expect(status.run.record).toMatchObject({ state: 'Finished' });
      const result = (await (await fetch(status.run.url)).json()) as { summary: string };
      expect(result.summary).toMatch(/R² (1\.00|0\.99)/);
    }, 90_000);

    it('a link takes one upload: a second PUT after the bytes were accepted cannot change them', async () => {
      const A = await makeProject('twice');
      const upload = (await call(base(), 'rendCreate', { token: A.token, body: { bucket: A.project, name: 'twice' } })).body.rend.stamp;
      const good = Buffer.from('[[1,2,3],[2,3,5]]');
      const other = swapDigits(good);
      const item = await register(A.token, upload, 'a.json', good);
      expect((await put(item.url, good)).status).toBe(200);
      const second = await put(item.url, other);
      if (store === 'local') {
        expect(second.status).toBe(409);
        expect((await second.json()).error.message).toBe(LINK_USED);
        expect(sha256((await stored(item.stamp))!)).toBe(sha256(good));
      } else {
        // Before finish, the staging key holds whatever was sent last: finishing checks it, so other bytes fail the item.
        expect(second.status).toBe(200);
        const fin = await call(base(), 'uploadFinish', { token: A.token, body: { upload: item.stamp } });
        expect(fin.status).toBe(400);
        expect(fin.body.error.message).toMatch(/SHA-256/);
        expect(await stored(item.stamp)).toBeNull();
      }
    });

    it('upload links live 15 minutes; an expired one is refused', async () => {
      const A = await makeProject('ttl');
      const upload = (await call(base(), 'rendCreate', { token: A.token, body: { bucket: A.project, name: 'ttl' } })).body.rend.stamp;
      const bytes = Buffer.from('[[1,2]]');
      const item = await register(A.token, upload, 'a.json', bytes);
      expect(item.expiresAt - now()).toBeGreaterThan(14 * 60);
      expect(item.expiresAt - now()).toBeLessThanOrEqual(15 * 60);
      if (store === 's3') expect(new URL(item.url).searchParams.get('X-Amz-Expires')).toBe('900');

      const short = await startServer(db, { storageUrl, uploadUrlTtlS: 1 });
      try {
        const B = await signup(short.url, 'ttl');
        const project = (await call(short.url, 'bucketCreate', { token: B.token, body: { client: B.client, name: 'ttl' } })).body.bucket
          .stamp;
        const r = (await call(short.url, 'rendCreate', { token: B.token, body: { bucket: project, name: 'ttl' } })).body.rend.stamp;
        const reg = (
          await call(short.url, 'uploadRegister', {
            token: B.token,
            body: { rend: r, name: 'a.json', file: { name: 'a.json', size: bytes.length, checksum: sha256(bytes) } },
          })
        ).body.upload;
        await waitFor(async () => Date.now() > (reg.expiresAt + 1) * 1000);
        const late = await put(reg.url, bytes);
        expect(late.status).toBe(403);
        const text = await late.text();
        expect(text).toContain(store === 'local' ? LINK_EXPIRED : 'Request has expired');
        const fin = await call(short.url, 'uploadFinish', { token: B.token, body: { upload: reg.stamp } });
        expect(fin.status).toBe(409);
      } finally {
        await short.close();
      }
    }, 60_000);

    it('readiness: database and storage answer', async () => {
      const r = await call(base(), 'ready');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, checks: { database: 'ok', storage: 'ok', worker: 'ok' } });
      expect((await call(base(), 'health')).status).toBe(200);
    });

    it('the sweep deletes objects of failed and removed uploads after the grace period, and nothing else', async () => {
      const A = await makeProject('sweep');
      const kept = await uploadOne(A.token, A.project, 'kept.json', fitData(20, 2));
      const failed = await uploadOne(A.token, A.project, 'failed.json', Buffer.from('this is not JSON at all'));
      const removed = await uploadOne(A.token, A.project, 'removed.json', fitData(21, 2));
      expect([kept.settled.flight, failed.settled.flight, removed.settled.flight]).toEqual(['Ready', 'Failed', 'Ready']);
      expect((await call(base(), 'rendRemove', { token: A.token, body: { rend: removed.upload, active: 0 } })).status).toBe(200);
      // Bytes sent but never finished (S3: a staging object), and a temporary file a crash left behind.
      const upload = (await call(base(), 'rendCreate', { token: A.token, body: { bucket: A.project, name: 'abandoned' } })).body.rend.stamp;
      const abandonedBytes = Buffer.from('[[1,1,2]]');
      const abandoned = await register(A.token, upload, 'abandoned.json', abandonedBytes);
      expect((await put(abandoned.url, abandonedBytes)).status).toBe(200);
      const leftover = join(srv.dataDir, 'files-tmp', 'left-by-a-crash');
      await writeFile(leftover, 'partial');
      const old = new Date(Date.now() - 2 * storage().sweepGraceS * 1000);
      await utimes(leftover, old, old);
      const s3client = (storage() as S3Storage).client;
      const staged = async () => {
        if (!s3client) return null;
        const { HeadObjectCommand } = await import('@aws-sdk/client-s3');
        return s3client
          .send(new HeadObjectCommand({ Bucket: (storage() as S3Storage).loc.bucket, Key: stagingKey(uploadKey(abandoned.stamp)) }))
          .then(
            () => true,
            () => false,
          );
      };
      if (store === 's3') expect(await staged()).toBe(true);

      // Within the grace period nothing of theirs goes; the old temporary file does.
      const early = await sweepStorage(srv.built.services.db, storage(), now());
      expect(early.uploads).toBe(0);
      for (const id of [kept.item.stamp, failed.item.stamp, removed.item.stamp]) expect(await stored(id)).not.toBeNull();
      await expect(readFile(leftover)).rejects.toThrow();

      const later = now() + storage().sweepGraceS + 5;
      const swept = await sweepStorage(srv.built.services.db, storage(), later);
      expect(swept.uploads).toBeGreaterThanOrEqual(2);
      expect(await stored(failed.item.stamp)).toBeNull();
      expect(await stored(removed.item.stamp)).toBeNull();
      expect(sha256((await stored(kept.item.stamp))!)).toBe(sha256(fitData(20, 2)));
      if (store === 's3') expect(await staged()).toBe(false);
      const rows = await srv.built.services.db
        .selectFrom('uploads')
        .select(['stamp', 'swept_at'])
        .where('stamp', 'in', [kept.item.stamp, failed.item.stamp, removed.item.stamp])
        .execute();
      expect(Object.fromEntries(rows.map((r) => [r.stamp, r.swept_at !== null]))).toEqual({
        [kept.item.stamp]: false,
        [failed.item.stamp]: true,
        [removed.item.stamp]: true,
      });
      // Done once: the next round has nothing of theirs left to delete.
      expect((await sweepStorage(srv.built.services.db, storage(), later)).uploads).toBe(0);

      // A request still waiting on a removed upload keeps its bytes until it is done.
      const busy = await uploadOne(A.token, A.project, 'busy.json', fitData(22, 2));
      const db0 = srv.built.services.db;
      const run = `r_sweep${Date.now().toString(36)}`;
      await db0
        .insertInto('runs')
        .values({
          stamp: run,
          bucket: A.project,
          rend: busy.upload,
          pile: null,
          fit: null,
          quote: null,
          model: null,
          name: 'waiting',
          desc: '',
          function: 'fit',
          state: 'Pending',
          message: '',
          result_key: null,
          inputs: 0,
          active: 1,
          created_at: now(),
        })
        .execute();
      expect((await call(base(), 'rendRemove', { token: A.token, body: { rend: busy.upload, active: 0 } })).status).toBe(200);
      await sweepStorage(db0, storage(), later);
      expect(await stored(busy.item.stamp)).not.toBeNull();
      await db0.updateTable('runs').set({ state: 'Failed' }).where('stamp', '=', run).execute();
      await sweepStorage(db0, storage(), later);
      expect(await stored(busy.item.stamp)).toBeNull();

      // The worker's housekeeping runs the same sweep: an item that failed longer ago than the grace period goes.
      const late = await uploadOne(A.token, A.project, 'late.json', Buffer.from('neither is this'));
      expect(late.settled.flight).toBe('Failed');
      const db = srv.built.services.db;
      await db
        .updateTable('uploads')
        .set({ ended_at: now() - storage().sweepGraceS - 5 })
        .where('stamp', '=', late.item.stamp)
        .execute();
      await srv.built.worker!.housekeep();
      expect(await stored(late.item.stamp)).toBeNull();
      expect(sha256((await stored(kept.item.stamp))!)).toBe(sha256(fitData(20, 2)));
    }, 90_000);

    if (store === 's3') {
      it("the bucket's CORS rule lets the portal's origin PUT with the headers the browser sends, and no other origin", async () => {
        const s3c = (storage() as S3Storage).client;
        const rules = (await s3c.send(new GetBucketCorsCommand({ Bucket: (storage() as S3Storage).loc.bucket }))).CORSRules ?? [];
        expect(missingCors(rules, [ORIGIN])).toBeNull();
        const preflight = (origin: string) =>
          fetch(`${s3!.endpoint}/${(storage() as S3Storage).loc.bucket}/${stagingKey('uploads/x')}`, {
            method: 'OPTIONS',
            headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
          });
        expect((await preflight(ORIGIN)).status).toBe(200);
        expect((await preflight('http://evil.example')).status).toBe(403);
      });

      it('a missing bucket makes readiness fail with a sentence naming it, while liveness stays up', async () => {
        const name = freshBucketName();
        const other = await startServer(db, { storageUrl: s3!.url(name), publicUrl: ORIGIN });
        try {
          expect((await call(other.url, 'ready')).status).toBe(200);
          await s3!.client.send(new DeleteBucketCommand({ Bucket: name }));
          const r = await call(other.url, 'ready');
          expect(r.status).toBe(503);
          expect(r.body.checks).toEqual({
            database: 'ok',
            storage: expect.stringContaining(`"${name}" at ${s3!.endpoint} does not exist`),
            worker: 'ok',
          });
          expect(r.body.error.message).toMatch(/^Not ready: storage: /);
          expect((await call(other.url, 'health')).status).toBe(200);
          await s3!.client.send(new CreateBucketCommand({ Bucket: name }));
          expect((await call(other.url, 'ready')).status).toBe(200);
        } finally {
          await other.close();
        }
      });
    }
  },
);

describe('S3 store: start-up and probes', () => {
  let s3: S3Sandbox;
  beforeAll(async () => {
    s3 = await startS3();
  });
  afterAll(async () => {
    await s3?.close();
  });

  const open = async (url: string, lines: string[], scratchDir: string) =>
    openS3Storage(url, {
      uploadTtlS: 900,
      sweepGraceS: 60,
      scratchDir,
      corsOrigins: [ORIGIN],
      log: { info: (m) => lines.push(`info: ${m}`), error: (m) => lines.push(`error: ${m}`) },
    });

  it('an unreachable bucket is logged once, clearly, however often readiness asks; recovery is logged once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portal-s3-probe-'));
    try {
      const lines: string[] = [];
      const name = freshBucketName();
      const st = await open(s3.url(name).replace(/endpoint=[^&]+/, `endpoint=${encodeURIComponent('http://127.0.0.1:9')}`), lines, dir);
      await st.init();
      for (let i = 0; i < 3; i++)
        expect(await st.check()).toMatch(new RegExp(`^the bucket "${name}" at http://127.0.0.1:9 cannot be reached \\(`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^error: Storage is not ready: the bucket ".*" at http:\/\/127\.0\.0\.1:9 cannot be reached/);

      const created: string[] = [];
      const good = await open(s3.url(name), created, dir);
      await good.init();
      expect(await good.check()).toBeNull();
      expect(created).toEqual([
        `info: Created the bucket "${name}" at ${s3.endpoint}.`,
        expect.stringMatching(/^info: Set the CORS rule of the bucket/),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('upload links may live shorter than 15 minutes, never longer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portal-ttl-'));
    try {
      expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: testSecret() })).toMatchObject({ uploadUrlTtlS: 900, storageGraceS: 86400 });
      expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: testSecret(), UPLOAD_URL_TTL_S: '60', STORAGE_SWEEP_GRACE_S: '0' })).toMatchObject({
        uploadUrlTtlS: 60,
        storageGraceS: 0,
      });
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: testSecret(), UPLOAD_URL_TTL_S: '3600' })).toThrow(
        'UPLOAD_URL_TTL_S must be at most 900 (15 minutes), got "3600".',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says exactly what a CORS rule lacks', () => {
    expect(missingCors([], [ORIGIN])).toBe(`PUT from ${ORIGIN} with the content-type header`);
    expect(missingCors([{ AllowedOrigins: [ORIGIN], AllowedMethods: ['GET'], AllowedHeaders: ['*'] }], [ORIGIN])).toBe(
      `PUT from ${ORIGIN} with the content-type header`,
    );
    expect(missingCors([{ AllowedOrigins: [ORIGIN], AllowedMethods: ['PUT'] }], [ORIGIN])).not.toBeNull();
    expect(missingCors([{ AllowedOrigins: ['http://*.test:8080'], AllowedMethods: ['PUT'], AllowedHeaders: ['*'] }], [ORIGIN])).toBeNull();
    expect(missingCors([portalCorsRule([ORIGIN])], [ORIGIN, 'http://localhost:8080'])).toBe(
      'PUT from http://localhost:8080 with the content-type header',
    );
  });
});
