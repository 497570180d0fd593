// The embedded database runs in a thread of its own; what it acknowledged must survive the process being killed.
// kill -9 while writes are in flight, restart on the same DATA_DIR: every project whose create was answered is there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { call, freshDataDir, serverRoot, signup, startBuilt, testSecret } from './harness';

/** One signing key for both lives of the server: sessions made before the kill stay valid after it. */
const SECRET = testSecret();

const serve = (dataDir: string) => startBuilt({ DATA_DIR: dataDir, PORTAL_WORKER: '0', JWT_SECRET: SECRET });

describe('the embedded database under kill -9', { timeout: 180_000 }, () => {
  let dataDir: string;
  let running: ChildProcess | null = null;
  beforeAll(async () => {
    const build = spawnSync(process.execPath, ['build.mjs'], { cwd: serverRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    dataDir = await freshDataDir();
  });
  afterAll(async () => {
    running?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('every acknowledged write is there after a restart', async () => {
    const first = await serve(dataDir);
    running = first.child;
    const A = await signup(first.url, 'durable');
    const acknowledged: string[] = [];
    let killed = false;
    // Eight writers keep creates in flight until the process dies under them.
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const r = await call(first.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: `W${w} ${i}` } });
          if (r.status === 200) acknowledged.push(r.body.bucket.stamp);
        } catch {
          return; // the connection died with the process: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    await expect.poll(() => acknowledged.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(150);
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await exited;
    killed = true;
    await Promise.all(writers);

    const second = await serve(dataDir);
    running = second.child;
    const list = await call(second.url, 'bucketList', { token: A.token, query: { client: A.client } });
    expect(list.status).toBe(200);
    const ids = new Set(list.body.bucket.list.map((b: { stamp: string }) => b.stamp));
    expect(acknowledged.filter((s) => !ids.has(s))).toEqual([]);
    expect(ids.size).toBeGreaterThanOrEqual(acknowledged.length);
  });
});
