// Runs one processing call in a child process of its own, under a wall-clock limit and a memory cap: on overrun
// the process is killed and the call fails with an Overrun, so a hostile file costs its sender one failed job and
// nobody else anything. Built, the child runs dist/processing-thread.js; from source (tests), thread.ts is bundled
// once per process with esbuild so the same isolation is exercised.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as processing from '../processing/index';
import type { ProcessingCall, ProcessingReply } from './thread';

export type Fn = ProcessingCall['fn'];
export type Args<F extends Fn> = Extract<ProcessingCall, { fn: F }>['args'];
export type Result<F extends Fn> = Awaited<ReturnType<(typeof processing)[F]>>;

export interface JobLimits {
  /** Wall-clock seconds the call may take. */
  timeoutS: number;
  /** Resident memory of the call's process, in MB. */
  memoryMb: number;
}

/** The call went past its time or memory limit and was stopped. */
export class Overrun extends Error {
  constructor(readonly limit: 'time' | 'memory') {
    super(`processing exceeded its ${limit} limit`);
  }
}

/** The call was stopped from outside (the worker is shutting down): the job should be put back, not failed. */
export class Stopped extends Error {
  constructor() {
    super('processing was stopped before it finished');
  }
}

const builtFile = fileURLToPath(new URL('./processing-thread.js', import.meta.url));
let sourceBundle: Promise<string> | null = null;

/** From source there is no built entry: bundle thread.ts once, the way build.mjs does. */
function entryFile(): Promise<string> {
  if (existsSync(builtFile)) return Promise.resolve(builtFile);
  sourceBundle ??= (async () => {
    const { build } = await import('esbuild');
    const out = join(await mkdtemp(join(tmpdir(), 'portal-processing-')), 'processing-thread.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('./thread.ts', import.meta.url))],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      banner: { js: "import { createRequire as __portalCreateRequire } from 'node:module';\nconst require = __portalCreateRequire(import.meta.url);" },
    });
    return out;
  })();
  return sourceBundle;
}

const POLL_MS = 50;

/** Resident memory of a process in MB from /proc (Linux); null elsewhere, where only the heap cap applies. */
async function rssMb(pid: number): Promise<number | null> {
  try {
    const statm = await readFile(`/proc/${pid}/statm`, 'utf8');
    return (Number(statm.split(' ')[1]) * 4096) / (1024 * 1024);
  } catch {
    return null;
  }
}

/**
 * Runs `fn(...args)` in a fresh process. Rejects with Overrun past a limit, with Stopped when `signal` aborts,
 * and with the processing error's own message otherwise.
 */
export async function runProcessing<F extends Fn>(fn: F, args: Args<F>, limits: JobLimits, signal?: AbortSignal): Promise<Result<F>> {
  if (signal?.aborted) throw new Stopped();
  const file = await entryFile();
  return new Promise<Result<F>>((resolve, reject) => {
    // The child gets no secrets: only what Node needs to run and to find a scratch folder.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, LANG: process.env.LANG };
    const child: ChildProcess = fork(file, [], {
      env,
      execArgv: [`--max-old-space-size=${Math.max(16, Math.floor(limits.memoryMb))}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let settled = false;
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString();
    });
    const finish = (err: Error | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(value as Result<F>);
    };
    const timer = setTimeout(() => finish(new Overrun('time')), limits.timeoutS * 1000);
    const watch = setInterval(() => {
      if (child.pid === undefined) return;
      void rssMb(child.pid).then((mb) => {
        if (mb !== null && mb > limits.memoryMb) finish(new Overrun('memory'));
      });
    }, POLL_MS);
    const onAbort = () => finish(new Stopped());
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('message', (reply: ProcessingReply) => {
      if (reply.ok) finish(null, reply.value);
      else finish(new Error(reply.message));
    });
    child.once('error', (err) => finish(err));
    // 'close', not 'exit': it comes after the IPC channel is drained, so a reply sent just before exiting is seen first.
    child.once('close', (code, sig) => {
      // V8 aborts when the heap cap is reached; that is the memory limit, not a crash of ours.
      if (/heap out of memory|Reached heap limit/i.test(stderr)) finish(new Overrun('memory'));
      else finish(new Error(`Processing stopped unexpectedly (${sig ?? `exit code ${code}`}). Please try again or contact support.`));
    });
    child.send({ fn, args } as ProcessingCall);
  });
}
