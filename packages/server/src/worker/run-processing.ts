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
import type { ProcessingCall, ProcessingNote, ProcessingReply } from './thread';

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
      banner: {
        js: "import { createRequire as __portalCreateRequire } from 'node:module';\nconst require = __portalCreateRequire(import.meta.url);",
      },
    });
    return out;
  })();
  return sourceBundle;
}

const POLL_MS = 50;

interface Proc {
  child: ChildProcess;
  memoryMb: number;
  /** The start of what the process wrote to stderr (to tell V8's heap-limit abort from other exits). */
  stderr: { text: string };
}

function spawnProc(file: string, memoryMb: number): Proc {
  // The child gets no secrets: only what Node needs to run and to find a scratch folder.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, LANG: process.env.LANG };
  const child = fork(file, [], {
    env,
    execArgv: [`--max-old-space-size=${Math.max(16, Math.floor(memoryMb))}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const proc: Proc = { child, memoryMb, stderr: { text: '' } };
  child.stderr!.on('data', (d: Buffer) => {
    if (proc.stderr.text.length < 4096) proc.stderr.text += d.toString();
  });
  return proc;
}

// Processes started ahead and waiting for a call, so a job does not wait for Node to start (0.1 s idle, far more
// on a busy machine). Each takes one call and exits; a new one is started as one is taken.
const spares: Proc[] = [];
const warm = { count: 0, memoryMb: 0, file: '' };

function refill(): void {
  while (warm.file && spares.length < warm.count) {
    const proc = spawnProc(warm.file, warm.memoryMb);
    // Waiting processes must not keep the server from exiting.
    proc.child.unref();
    proc.child.channel?.unref();
    proc.child.once('exit', () => {
      const i = spares.indexOf(proc);
      if (i >= 0) spares.splice(i, 1);
    });
    spares.push(proc);
  }
}

/** Keeps `count` more processes (for calls capped at `memoryMb`) started and waiting; undo with the function returned. */
export async function keepWarm(count: number, memoryMb: number): Promise<() => void> {
  warm.file = await entryFile();
  if (warm.memoryMb !== memoryMb) for (const p of spares.splice(0)) p.child.kill('SIGKILL');
  warm.memoryMb = memoryMb;
  warm.count += count;
  refill();
  return () => {
    warm.count -= count;
    for (const p of spares.splice(Math.max(0, warm.count))) p.child.kill('SIGKILL');
  };
}

function takeProc(file: string, memoryMb: number): Proc {
  const i = spares.findIndex((p) => p.memoryMb === memoryMb && p.child.connected);
  if (i < 0) return spawnProc(file, memoryMb);
  const [proc] = spares.splice(i, 1);
  proc.child.ref();
  proc.child.channel?.ref();
  refill();
  return proc;
}

/**
 * The peak resident memory of a process in MB (Linux's VmHWM: a spike between two looks still counts); null
 * where /proc is missing, where only the heap cap applies.
 */
async function peakMb(pid: number): Promise<number | null> {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Runs `fn(...args)` in a fresh process. Rejects with Overrun past a limit, with Stopped when `signal` aborts,
 * and with the processing error's own message otherwise.
 */
export async function runProcessing<F extends Fn>(
  fn: F,
  args: Args<F>,
  limits: JobLimits,
  signal?: AbortSignal,
  onEvent?: (event: ProcessingNote['event']) => void,
): Promise<Result<F>> {
  if (signal?.aborted) throw new Stopped();
  const file = await entryFile();
  return new Promise<Result<F>>((resolve, reject) => {
    const { child, stderr } = takeProc(file, limits.memoryMb);
    let settled = false;
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
      void peakMb(child.pid).then((mb) => {
        if (mb !== null && mb > limits.memoryMb) finish(new Overrun('memory'));
      });
    }, POLL_MS);
    const onAbort = () => finish(new Stopped());
    signal?.addEventListener('abort', onAbort, { once: true });
    let replied = false;
    const onMessage = (message: ProcessingReply | ProcessingNote) => {
      if ('event' in message) {
        if (!settled) onEvent?.(message.event);
        return;
      }
      child.off('message', onMessage);
      const reply = message;
      replied = true;
      // The answer counts only if the call stayed within its memory the whole time, however short it was.
      void (child.pid === undefined ? Promise.resolve(null) : peakMb(child.pid)).then((mb) => {
        if (mb !== null && mb > limits.memoryMb) finish(new Overrun('memory'));
        else if (reply.ok) finish(null, reply.value);
        else finish(new Error(reply.message));
      });
    };
    child.on('message', onMessage);
    child.once('error', (err) => finish(err));
    // 'close', not 'exit': it comes after the IPC channel is drained, so a reply sent just before exiting is seen first.
    child.once('close', (code, sig) => {
      if (replied) return;
      // V8 aborts when the heap cap is reached; that is the memory limit, not a crash of ours.
      if (/heap out of memory|Reached heap limit/i.test(stderr.text)) finish(new Overrun('memory'));
      else finish(new Error(`Processing stopped unexpectedly (${sig ?? `exit code ${code}`}). Please try again or contact support.`));
    });
    child.send({ fn, args } as ProcessingCall);
  });
}
