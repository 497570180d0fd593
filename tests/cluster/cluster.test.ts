// The product as operators run it (deploy/local-cluster: PostgreSQL, s3rver, 3 API processes, 2 workers, nginx):
// the CLI's whole flow through the balancer, a worker killed during a fit, an API process killed under traffic.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxPath, startCluster, type Cluster } from '../../deploy/local-cluster.mjs';
import { build, fitArgs, portal } from '../cli/harness';

const nginx = nginxPath();
if (!nginx && process.env.CI) throw new Error('The cluster test needs nginx under CI: apt-get install -y nginx (.ci/run does).');
if (!nginx) console.warn('\n*** nginx is not installed: the cluster test is SKIPPED (apt-get install -y nginx). ***\n');

let cluster: Cluster;
let home: string;
const run = (args: string[], opts?: Parameters<typeof portal>[3]) => portal(home, cluster.url, args, opts);
const json = <T = any>(r: { stdout: string; stderr: string; code: number }): T => {
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

async function until<T>(what: string | (() => string), fn: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!nginx)('a cluster behind nginx', () => {
  const state: Record<string, string> = {};

  beforeAll(async () => {
    build();
    cluster = await startCluster({ apis: 3, workers: 2 });
    home = await mkdtemp(join(tmpdir(), 'portal-cluster-user-'));
  });
  afterAll(async () => {
    await cluster?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('runs the whole flow through the balancer: sign-up, project, upload to the bucket, fit and generate', async () => {
    const up = await run(
      ['signup', '--email', 'ops@example.com', '--username', 'ops_user', '--name', 'Operations', '--password-stdin', '--accept-terms'],
      { stdin: 'Secret-123!\n' },
    );
    expect(up.code, up.stderr).toBe(0);
    state.project = json(await run(['projects', 'create', '--name', 'Cluster', '--json'])).stamp;
    expect((await run(['projects', 'open', state.project])).code).toBe(0);
    const rows = Array.from({ length: 300 }, (_, i) => [i % 7, (i * 3) % 11, (i * 5) % 13, ((i % 7) + ((i * 3) % 11)) / 10]);
    await writeFile(join(home, 'data.json'), JSON.stringify(rows));
    const upload = json(await run(['uploads', 'push', 'data.json', '--wait', '--json']));
    expect(upload).toMatchObject({ flight: 'Ready' });
    state.upload = upload.stamp;
    const fit = json(await run(fitArgs(state.upload, 'First', '--wait', '--json')));
    expect(fit.run.record).toMatchObject({ function: 'fit', state: 'Finished' });
    expect(fit.generate.record).toMatchObject({ function: 'generate', state: 'Finished' });
  });

  it('a worker killed while it holds a fit loses it to the other worker, which finishes it', async () => {
    // The plan's most rows, so training lasts long enough to be cut off.
    const rows = Array.from({ length: 5000 }, (_, i) => [i % 7, (i * 3) % 11, (i * 5) % 13, Math.sin(i) + ((i % 7) + ((i * 3) % 11)) / 10]);
    await writeFile(join(home, 'big.json'), JSON.stringify(rows));
    const big = json(await run(['uploads', 'push', 'big.json', '--wait', '--json']));
    expect(big).toMatchObject({ flight: 'Ready' });
    const [first, second] = cluster.workers;
    // The second worker is frozen, so the first one takes the job; it is thawed once the first is killed.
    second.child.kill('SIGSTOP');
    try {
      expect((await run(fitArgs(big.stamp, 'Failover', '--json'))).code).toBe(0);
      // What the list last showed of the fit, for the failure's message (a fit that ended before it was seen running
      // cannot be cut off).
      let seen = 'nothing yet';
      await until(
        () => `the fit to be taken by the first worker (last seen: ${seen})`,
        async () => {
          const listed = await run(['runs', 'list', '--json']);
          if (listed.code !== 0) {
            seen = `runs list failed: exit ${listed.code}: ${listed.stderr.trim()}`;
            return false;
          }
          const fit = json<any[]>(listed).find((r) => r.function === 'fit' && r.name === 'Failover');
          seen = fit ? `${fit.state}${fit.message ? `, ${fit.message}` : ''}` : 'not listed';
          return fit?.state === 'Processing';
        },
        60_000,
      );
      await first.kill();
    } finally {
      second.child.kill('SIGCONT');
    }
    const killedAt = Date.now();
    const done = await until(
      'the generate run to finish on the other worker',
      async () => {
        const list = json<any[]>(await run(['runs', 'list', '--json']));
        const gen = list.find((r) => r.function === 'generate' && r.name === 'Failover (embeddings)');
        return gen && (gen.state === 'Finished' || gen.state === 'Failed') ? gen : null;
      },
      90_000,
    );
    expect(done.state).toBe('Finished');
    // A lease of 10 s, reclaimed at claim time, plus the fit itself.
    expect(Date.now() - killedAt).toBeLessThan(45_000);
  });

  it('an API process killed under traffic loses nothing: reads keep answering and every acknowledged write is kept', async () => {
    const created: string[] = [];
    let readFailures = 0;
    let writeFailures = 0;
    let stop = false;
    const reader = (async () => {
      while (!stop) {
        const r = await fetch(`${cluster.url}/api/health`).catch(() => null);
        if (!r?.ok) readFailures++;
      }
    })();
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const r = await run(['projects', 'create', '--name', `Load ${i}`, '--json']);
        if (r.code === 0) created.push(JSON.parse(r.stdout).stamp);
        else writeFailures++;
      }
    })();
    await until('a few writes', async () => created.length >= 3, 60_000);
    await cluster.apis[1].kill();
    const atKill = created.length;
    await until('writes after the kill', async () => created.length >= atKill + 5, 60_000);
    stop = true;
    await Promise.all([reader, writer]);
    expect(readFailures).toBe(0);
    // A write in flight on the killed process may fail (and says so); nothing acknowledged is lost.
    expect(writeFailures).toBeLessThanOrEqual(1);
    const listed = new Set(json<any[]>(await run(['projects', 'list', '--json'])).map((p) => p.stamp));
    for (const stamp of created) expect(listed.has(stamp), stamp).toBe(true);
  });
});
