// The embedded database runs in a thread of its own; what it acknowledged must survive the process being killed.
// kill -9 while writes are in flight, restart on the same DATA_DIR: every project whose create was answered is there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { call, freshDataDir, serverRoot, signup, testSecret } from './harness';

/** One signing key for both lives of the server: sessions made before the kill stay valid after it. */
const SECRET = testSecret();

function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(serverRoot, 'dist/main.js')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PORTAL_WORKER: '0',
      JWT_SECRET: SECRET,
      METRICS_PORT: '0',
      PORTAL_DRAIN_S: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (d: Buffer) => {
      out += d.toString();
      const m = /Portal running at (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}):\n${out}`)));
  });
}

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
