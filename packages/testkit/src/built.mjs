// A program in a process of its own, above all the built server (packages/server/dist/main.js), for the tests and
// benchmarks that need one (kill -9, restarts, profiles, a worker apart): resolved with its URL once it prints it.
// Plain JavaScript, so the benchmarks run it with node as it is; built.d.mts gives the tests its types.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const builtMain = join(dirname(createRequire(import.meta.url).resolve('@portal/server/package.json')), 'dist', 'main.js');

/** What every started server is told: a free port on loopback, warnings only, no metrics port, no wait on stopping. */
export const BUILT_ENV = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', METRICS_PORT: '0', PORTAL_DRAIN_S: '0' };

/**
 * `node ...args` with `env` over this process's environment; resolves once its output matches `ready` (the URL in its
 * first group). Rejects with what it printed if it exits first, or if it has not started within `timeoutMs` (then
 * it is killed, not left running).
 */
export function startProcess(args, env, ready, timeoutMs = 60_000) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  /** Ends it (SIGTERM) and resolves once it has. */
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let started = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not started within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    // Its output is read to the end (a pipe left full would stall it) but kept only until it has started.
    const onData = (d) => {
      if (started) return;
      out += d.toString();
      const m = ready.exec(out);
      if (m) {
        started = true;
        out = '';
        clearTimeout(timer);
        resolve({ child, url: m[1] ?? '', stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`exited (${code ?? signal}):\n${out}`));
    });
  });
}

/**
 * The built server with `env` (its DATA_DIR among them) over BUILT_ENV: `nodeArgs` go before its file (Node's flags),
 * `args` after it (a subcommand such as `worker`, which prints another `ready` line).
 */
export function startBuilt(env, { args = [], nodeArgs = [], ready = /Portal running at (http:\/\/\S+)/, timeoutMs } = {}) {
  return startProcess([...nodeArgs, builtMain, ...args], { ...BUILT_ENV, ...env }, ready, timeoutMs);
}
