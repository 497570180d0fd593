// The real dependencies of the CLI: process streams, the conf store, the API client, the clock.
import { openStore } from '../store';
import type { Deps } from './context';
import { ttyPrompter } from './prompt';

declare const __PORTAL_VERSION__: string | undefined;

export const VERSION = typeof __PORTAL_VERSION__ === 'string' ? __PORTAL_VERSION__ : '0.0.0-dev';

export function nodeDeps(): Deps {
  let prompter: Deps['prompter'] | null = null;
  return {
    // Getters: touching process.stdin sets up a TTY or pipe stream, which `--version` and `--help` never need.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    openStore: () => openStore(process.env),
    // The API client loads with the first call (a module's own build loads it with the program: see build.mjs).
    makeApi: async (opts) => (await import(/* eager in module builds */ './client')).nodeApi(opts),
    now: () => Date.now(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    cwd: process.cwd(),
    get prompter() {
      if (prompter === null) prompter = process.stdin.isTTY ? ttyPrompter(process.stdin, process.stderr) : undefined;
      return prompter;
    },
    // Ink and React load only here, so subcommands start without them.
    startUi: async (session, initial) => {
      // NO_COLOR (no-color.org): Ink's colours come from chalk, which reads FORCE_COLOR when it loads, not NO_COLOR.
      if (process.env.NO_COLOR) process.env.FORCE_COLOR = '0';
      return (await import('../ui/start')).startUi(session, initial);
    },
    version: VERSION,
    pollMs: Number(process.env.PORTAL_POLL_MS) || 2000,
    onInterrupt: (fn) => {
      process.once('SIGINT', fn);
      return () => void process.off('SIGINT', fn);
    },
  };
}
