// Runs `portal` in-process with fake IO (a TTY or a pipe, stdin text, scripted answers) for the command tests,
// against the real server of ./api (signedIn gives a store holding a real session token for it).
import { Readable } from 'node:stream';
import { run } from '../src/cli/program';
import { nodeApi } from '../src/cli/client';
import type { Deps } from '../src/cli/context';
import { memoryStore, type Store } from '../src/store';
import type { TestApi, TestUser } from '@portal/testkit/api';

/** A token store signed in as this user (the test's own unless told) on the test server. */
export const signedIn = (server: TestApi, user: TestUser = server.user) => memoryStore({ token: user.token, api: server.url });

export interface FakeRun {
  code: number;
  stdout: string;
  stderr: string;
  store: ReturnType<typeof memoryStore>;
  prompts: string[];
}

export interface FakeRunOptions {
  tty?: boolean;
  stdin?: string;
  /** Answers to prompts, in order (TTY only). */
  answers?: string[];
  store?: ReturnType<typeof memoryStore>;
  env?: Record<string, string>;
  cwd?: string;
  now?: number;
  /** Receives the Ctrl+C handler a command installs (to press Ctrl+C from the test). */
  onInterrupt?: (fn: () => void) => void;
  /** How often --wait polls the server (ms). */
  pollMs?: number;
}

export async function portal(args: string[], opts: FakeRunOptions = {}): Promise<FakeRun> {
  let stdout = '';
  let stderr = '';
  const prompts: string[] = [];
  const answers = [...(opts.answers ?? [])];
  const store = opts.store ?? memoryStore();
  const stdin = Object.assign(Readable.from(opts.stdin !== undefined ? [Buffer.from(opts.stdin)] : []), { isTTY: !!opts.tty });
  const deps: Deps = {
    stdin,
    stdout: { write: (s: string) => (stdout += s), isTTY: !!opts.tty, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: !!opts.tty },
    env: opts.env ?? {},
    openStore: async () => store as Store,
    // The program's own client: its calls go over node:http (core's plainHttp).
    makeApi: (o) => nodeApi(o),
    now: () => opts.now ?? Date.now(),
    // --wait polls a real server whose worker takes real time: a short real pause, not a busy loop.
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    cwd: opts.cwd ?? process.cwd(),
    prompter: {
      ask: async (q) => {
        prompts.push(q);
        if (!answers.length) throw Object.assign(new Error('no answer scripted'), { cancelled: true });
        return answers.shift()!;
      },
    },
    version: '1.2.3',
    pollMs: opts.pollMs ?? 20,
    onInterrupt: (fn) => {
      opts.onInterrupt?.(fn);
      return () => {};
    },
  };
  const code = await run(args, deps);
  return { code, stdout, stderr, store, prompts };
}
