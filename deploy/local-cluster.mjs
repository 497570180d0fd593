#!/usr/bin/env node
// A production-shaped cluster on one machine: a fresh PostgreSQL database, s3rver as the bucket, N API processes
// (no in-process worker), M worker processes and nginx in front of the API processes on one port.
//
//   node deploy/local-cluster.mjs [--apis 3] [--workers 2] [--port 8090]      (after `npm run build`)
//
// PostgreSQL: PORTAL_CLUSTER_DATABASE_URL (an admin connection URL, default postgres://postgres@127.0.0.1:5432/postgres)
// makes a database `portal_cluster_<random>`, dropped at the end. nginx: Debian's package (`apt-get install nginx`).
// Imported by tests/cluster, which kills processes of it while traffic runs.
import { spawn, spawnSync } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '../packages/server/node-flags.mjs';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(ROOT, 'packages/server/dist/main.js');
// s3rver and pg are the server package's own dependencies.
const fromServer = createRequire(join(ROOT, 'packages/server/package.json'));
const NGINX_CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx'];

export const nginxPath = () => NGINX_CANDIDATES.find((p) => existsSync(p)) ?? null;

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

async function waitUntil(what, check, timeoutMs, log = () => '') {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() > end) throw new Error(`${what} did not come up within ${timeoutMs / 1000} s.\n${log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One process of the cluster, with the last lines it printed (for messages when it fails). */
function startProcess(name, args, env) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (d) => (log = (log + d).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return {
    name,
    child,
    log: () => log,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    /** Stops it: SIGTERM (graceful), SIGKILL after the grace period. */
    async stop(graceMs = 15_000) {
      if (!this.alive) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, graceMs))]);
      if (this.alive) {
        child.kill('SIGKILL');
        await gone;
      }
    },
    /** A crash: SIGKILL, nothing cleaned up. */
    async kill() {
      if (!this.alive) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    },
  };
}

/** nginx's configuration; the API processes at `down` indexes are out of rotation (a deploy's step). */
function nginxConf(prefix, port, apiPorts, drainS, down = -1) {
  return `worker_processes 1;
error_log ${prefix}/error.log warn;
pid ${prefix}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  client_max_body_size 12m;
  # max_fails=0: a process is never marked down for a while; a request that cannot connect to it goes to the next one
  # (proxy_next_upstream error). Marking it down would, during a rolling restart, keep the new process out of rotation
  # while the other one stops: no live upstream, 502.
  upstream portal_api {
${apiPorts.map((p, i) => `    server 127.0.0.1:${p} max_fails=0${i === down ? ' down' : ''};`).join('\n')}
    keepalive 16;
    # Idle connections to a process are dropped before its drain ends (PORTAL_DRAIN_S), so none is in the pool when
    # it closes its port; the processes keep theirs open longer (KEEPALIVE_TIMEOUT_S 65 s), so they never close first.
    keepalive_timeout ${Math.max(1, Math.floor(drainS / 2))}s;
  }
  server {
    listen 127.0.0.1:${port};
    # A reload (a deploy's step) closes the idle client connections of the old workers, racing a client that sends
    # on one at that moment; browsers send again, a script's fetch does not. Without client keep-alive nothing is
    # idle, so the rolling test counts what the API processes lose, not what nginx's reload does.
    keepalive_timeout 0;
    location / {
      proxy_pass http://portal_api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # One id per request, the same in nginx's log and in the process's (it answers with it as X-Request-Id).
      proxy_set_header X-Request-Id $request_id;
      # A process that is gone is skipped: idempotent calls go to the next one.
      proxy_next_upstream error timeout http_502 http_503;
      proxy_connect_timeout 2s;
      proxy_read_timeout 120s;
      proxy_request_buffering off;
    }
  }
}
`;
}

/**
 * Starts the cluster and resolves once nginx answers /api/ready through every API process.
 * Returns its URL, its processes and stop().
 */
export async function startCluster({
  apis = 3,
  workers = 2,
  port,
  adminUrl = process.env.PORTAL_CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  drainS = Number(process.env.PORTAL_DRAIN_S ?? 10),
} = {}) {
  const nginx = nginxPath();
  if (!nginx) throw new Error('nginx is not installed: apt-get install -y nginx');
  if (!existsSync(SERVER)) throw new Error('The server is not built: npm run build');
  const dir = await mkdtemp(join(tmpdir(), 'portal-cluster-'));
  const cleanups = [];
  const stopAll = async () => {
    for (const c of cleanups.reverse()) await c().catch((e) => console.error(`cluster clean-up: ${e.message}`));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // The database.
    const pg = fromServer('pg');
    const name = `portal_cluster_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
    const dbUrl = new URL(adminUrl);
    dbUrl.pathname = `/${name}`;

    // The bucket.
    const { default: S3rver } = await import(fromServer.resolve('s3rver'));
    const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3') });
    const s3addr = await s3.run();
    cleanups.push(() => s3.close());
    const endpoint = `http://127.0.0.1:${s3addr.port}`;

    const publicPort = port ?? (await freePort());
    const url = `http://127.0.0.1:${publicPort}`;
    const shared = {
      DATABASE_URL: dbUrl.toString(),
      STORAGE_URL: `s3://portal-cluster?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`,
      PUBLIC_URL: url,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      PORTAL_WORKER: '0',
      PORTAL_DRAIN_S: String(drainS),
      // Every process has its own metrics port (printed at start); a fixed one would be taken by the first.
      METRICS_PORT: '0',
    };

    // Migrate once, as a deploy step, so the processes start on an up-to-date schema.
    const migrate = spawnSync(process.execPath, [SERVER, 'migrate'], {
      env: { ...process.env, ...shared, DATA_DIR: join(dir, 'migrate') },
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(`portal-server migrate failed:\n${migrate.stdout}${migrate.stderr}`);

    const apiProcs = [];
    const startApi = (i, p) => {
      const proc = startProcess(`api-${i + 1}`, [SERVER, 'serve', '--no-migrate'], {
        ...shared,
        PORT: String(p),
        HOST: '127.0.0.1',
        DATA_DIR: join(dir, `api-${i + 1}`),
      });
      proc.port = p;
      return proc;
    };
    for (let i = 0; i < apis; i++) apiProcs.push(startApi(i, await freePort()));
    cleanups.push(() => Promise.all(apiProcs.map((proc) => proc.stop())));
    const apiReady = (a) => waitUntil(a.name, async () => (await fetch(`http://127.0.0.1:${a.port}/api/ready`)).ok, 60_000, a.log);
    const workerProcs = [];
    for (let i = 0; i < workers; i++) {
      const proc = startProcess(`worker-${i + 1}`, [SERVER, 'worker'], { ...shared, DATA_DIR: join(dir, `worker-${i + 1}`) });
      workerProcs.push(proc);
      cleanups.push(() => proc.stop());
    }
    for (const a of apiProcs) await waitUntil(a.name, async () => (await fetch(`http://127.0.0.1:${a.port}/api/health`)).ok, 60_000, a.log);

    const prefix = join(dir, 'nginx');
    await mkdir(prefix, { recursive: true });
    const writeConf = (down) =>
      writeFile(
        join(prefix, 'nginx.conf'),
        nginxConf(
          prefix,
          publicPort,
          apiProcs.map((a) => a.port),
          drainS,
          down,
        ),
      );
    await writeConf();
    const ngx = spawn(nginx, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let ngxLog = '';
    ngx.stderr.on('data', (d) => (ngxLog += d));
    cleanups.push(async () => {
      if (ngx.exitCode !== null) return;
      const gone = new Promise((r) => ngx.once('exit', r));
      ngx.kill('SIGQUIT');
      await gone;
    });
    await waitUntil(
      'nginx',
      async () => (await fetch(`${url}/api/health`)).ok,
      20_000,
      () => ngxLog,
    );

    /** nginx's worker processes now. */
    const ngxWorkers = () =>
      spawnSync('ps', ['-o', 'pid=', '--ppid', String(ngx.pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .map(Number)
        .filter(Boolean);
    const gone = (pid) => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    /** Rewrites nginx's configuration and reloads it, resolved once the old workers have finished and exited. */
    const reload = async (down) => {
      await writeConf(down);
      const old = ngxWorkers();
      ngx.kill('SIGHUP');
      await waitUntil(
        'nginx reloaded',
        async () => old.every(gone) && ngxWorkers().length > 0,
        30_000,
        () => ngxLog,
      );
    };
    /**
     * A deploy's step as operators run it with nginx (which has no active health checks): the process is taken out
     * of rotation (`down`, reload), told to stop (SIGTERM: it drains), a new one takes its port, and once it is ready
     * it goes back into rotation. Closing a port nginx still connects to would reset the connections the kernel had
     * accepted for it but the process had not yet taken: a POST sent on one is lost (502), as nginx never resends it.
     */
    const restartApi = async (i) => {
      const old = apiProcs[i];
      await reload(i);
      await old.stop(drainS * 1000 + 30_000);
      apiProcs[i] = startApi(i, old.port);
      await apiReady(apiProcs[i]);
      await reload();
    };

    return { url, dir, apis: apiProcs, workers: workerProcs, databaseUrl: dbUrl.toString(), restartApi, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const cluster = await startCluster({ apis: arg('apis', 3), workers: arg('workers', 2), port: arg('port', undefined) });
  console.log(
    `Portal cluster running at ${cluster.url}: ${cluster.apis.length} API processes, ${cluster.workers.length} workers, PostgreSQL, s3rver, nginx. Ctrl+C stops it.`,
  );
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      cluster.stop().then(() => process.exit(0));
    });
  }
}
