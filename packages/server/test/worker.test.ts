// The job queue and worker without the HTTP layer: claiming order, waiting, crash recovery, housekeeping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { freshDataDir } from './harness';
import { openDatabase, type Database } from '../src/db/index';
import { JobQueue } from '../src/worker/queue';
import { CRASH_MESSAGE, Worker, sentence } from '../src/worker/worker';
import { LocalStorage } from '../src/storage/local';
import { Secrets } from '../src/auth/secrets';
import { now } from '../src/ids';

describe('worker', () => {
  let dir: string;
  let database: Database;
  let worker: Worker;
  const jobs = new JobQueue();

  beforeAll(async () => {
    dir = await freshDataDir();
    database = await openDatabase({ dataDir: dir });
    const log = { info: () => {}, error: () => {} };
    worker = new Worker({ db: database.db, storage: new LocalStorage(dir, new Secrets('s')), jobs, log, exclusive: true });
  });
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('claims queued jobs oldest first, one claimant each, counting the attempt', async () => {
    const db = database.db;
    await jobs.enqueue(db, 'analyze', 'first');
    await jobs.enqueue(db, 'analyze', 'second');
    const [a, b, c] = await Promise.all([worker.claim(), worker.claim(), worker.claim()]);
    expect([a?.ref, b?.ref]).toEqual(['first', 'second']);
    expect(c).toBeUndefined();
    expect(a).toMatchObject({ state: 'running', attempts: 1 });
    await db.deleteFrom('jobs').execute();
  });

  it('a job whose subject is gone finishes quietly', async () => {
    await jobs.enqueue(database.db, 'analyze', 'no-such-item');
    expect(await worker.runOnce()).toBe(true);
    const job = await database.db.selectFrom('jobs').selectAll().where('ref', '=', 'no-such-item').executeTakeFirstOrThrow();
    expect(job.state).toBe('done');
    expect(await worker.runOnce()).toBe(false);
  });

  it('after a crash a running job is queued again once, then fails with a message', async () => {
    const db = database.db;
    const t = now();
    await db.insertInto('jobs').values([
      { kind: 'fit', ref: 'once', state: 'running', attempts: 1, run_after: t, locked_until: t + 30, error: null, created_at: t },
      { kind: 'fit', ref: 'twice', state: 'running', attempts: 2, run_after: t, locked_until: t + 30, error: null, created_at: t },
    ]).execute();
    await worker.recover(true);
    const rows = await db.selectFrom('jobs').select(['ref', 'state', 'error']).where('ref', 'in', ['once', 'twice']).orderBy('ref').execute();
    expect(rows).toEqual([
      { ref: 'once', state: 'queued', error: null },
      { ref: 'twice', state: 'failed', error: CRASH_MESSAGE },
    ]);
  });

  it('housekeeping drops old finished jobs and expired reset tokens, and keeps the rest', async () => {
    const db = database.db;
    const old = now() - 8 * 24 * 60 * 60;
    await db.insertInto('jobs').values({ kind: 'analyze', ref: 'ancient', state: 'done', attempts: 1, run_after: old, locked_until: null, error: null, created_at: old }).execute();
    await db.insertInto('reset_tokens').values([
      { jti: 'expired', user_stamp: 'u', expires_at: old, used_at: null },
      { jti: 'fresh', user_stamp: 'u', expires_at: now() + 600, used_at: null },
    ]).execute();
    await worker.housekeep();
    expect(await db.selectFrom('jobs').select('ref').where('ref', '=', 'ancient').execute()).toEqual([]);
    expect((await db.selectFrom('reset_tokens').select('jti').execute()).map((r) => r.jti)).toEqual(['fresh']);
    expect(await db.selectFrom('jobs').select('ref').where('ref', '=', 'once').execute()).toHaveLength(1);
  });

  it('failure messages are sentences', () => {
    expect(sentence('  the file is empty ')).toBe('the file is empty.');
    expect(sentence('Done!')).toBe('Done!');
    expect(sentence('')).toBe('Processing failed.');
  });
});
