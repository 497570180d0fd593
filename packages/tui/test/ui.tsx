// Renders the UI with ink-testing-library against the real server (testing/api.ts); keys and a wait-for-text helper.
import { EventEmitter } from 'node:events';
import { render as inkRender } from 'ink';
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { memoryTokenStore, type ApiClient } from '@portal/core';
import { callTable } from '@portal/core/contract/table';
import { nodeApi } from '../src/cli/client';
import { App } from '../src/ui/App';
import { TerminalIn } from '../src/ui/terminalIn';
import type { TestApi, TestUser } from '@portal/testkit/api';
import { mountedTerminals } from './mounted';

export const KEY = { up: '\u001B[A', down: '\u001B[B', enter: '\r', esc: '\u001B', tab: '\t', shiftTab: '\u001B[Z', space: ' ' } as const;

export interface UiRun extends ReturnType<typeof render> {
  api: ApiClient;
  copied: string[];
  saved: { name: string; text: string }[];
  remembered: Record<string, string>;
  /** Types keys one at a time, letting Ink handle each. */
  type(...keys: string[]): Promise<void>;
  /** Waits until the text is no longer on screen (e.g. an inline field closed after its action finished). */
  gone(text: string, timeoutMs?: number): Promise<void>;
  /** Waits until the last frame, its whitespace collapsed, contains the text (or matches); resolves to that text. */
  see(text: string | RegExp, timeoutMs?: number): Promise<string>;
}

/** Gives the test terminal a size and emits 'resize', as a real terminal does when its window changes. */
export function resize(stdout: object, size: { columns: number; rows: number }): void {
  Object.defineProperty(stdout, 'columns', { value: size.columns, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: size.rows, configurable: true });
  (stdout as { emit(event: string): void }).emit('resize');
}

const tick = (ms = 15) => new Promise((r) => setTimeout(r, ms));

/**
 * Lets the work React has queued run (its scheduler runs on setImmediate: a frame's effects, where Ink subscribes to
 * keys, run in the tasks queued after it), then waits `ms`. On a busy machine a wait in milliseconds alone can end
 * before those tasks have had the processor, and a key typed then finds no one listening.
 */
async function settle(ms: number): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  await tick(ms);
}

/** A terminal's stdin as `portal` has it (a TTY in raw mode): what is written to it arrives as the terminal's bytes. */
class TestTty extends EventEmitter {
  isTTY = true;
  setRawMode = () => this;
  ref = () => this;
  unref = () => this;
  pause = () => this;
  resume = () => this;
}

/** Frames as ink-testing-library keeps them (Ink's debug mode writes each whole frame). */
class TestScreen extends EventEmitter {
  columns = 100;
  frames: string[] = [];
  write = (frame: string) => void this.frames.push(frame);
  lastFrame = () => this.frames.at(-1);
}

/**
 * Ink's own render with the UI's TerminalIn between the terminal and Ink, as `portal` starts it: keys and the
 * terminal's focus reports written to `stdin` go through it.
 */
function renderTerminal(tree: ReactElement, keys: TerminalIn, tty: TestTty): ReturnType<typeof render> {
  const stdout = new TestScreen();
  const stderr = new TestScreen();
  const inst = inkRender(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: keys as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  mountedTerminals.add(inst);
  const stdin = Object.assign(tty, { write: (data: string) => void tty.emit('data', Buffer.from(data)) });
  return { ...inst, stdout, stderr, stdin, frames: stdout.frames, lastFrame: stdout.lastFrame } as unknown as ReturnType<typeof render>;
}

/**
 * Opens the UI at a route, signed in as this test's user (or another one, or signed out). `terminal`: Ink reads the
 * keys through the UI's TerminalIn, which takes the terminal's focus reports out (ink-testing-library's stdin otherwise).
 */
export function renderUi(
  server: TestApi,
  initial: string,
  opts: { signedIn?: boolean; user?: TestUser; size?: { columns: number; rows: number }; terminal?: boolean } = {},
): UiRun {
  const tokens = memoryTokenStore(opts.signedIn === false ? null : (opts.user ?? server.user).token);
  const listeners = new Set<(m: string) => void>();
  // The UI's own client (calls over node:http, the whole route table), as `portal` builds it (ui/lazyApi.ts).
  const api = nodeApi({ baseUrl: server.url, tokens, onAuthFailure: (m) => listeners.forEach((l) => l(m)) }, callTable);
  const copied: string[] = [];
  const saved: { name: string; text: string }[] = [];
  const remembered: Record<string, string> = {};
  const tty = new TestTty();
  const keys = opts.terminal ? new TerminalIn(tty) : undefined;
  const tree = (
    <App
      api={api}
      focus={keys}
      initial={initial}
      io={{
        cwd: process.cwd(),
        baseUrl: server.url,
        copy: async (t) => void copied.push(t),
        saveFile: async (name, text) => (saved.push({ name, text }), `/here/${name}`),
        remember: (k, v) => void (remembered[k] = v),
      }}
      authFailures={{ subscribe: (fn) => (listeners.add(fn), () => void listeners.delete(fn)) }}
    />
  );
  const inst = keys ? renderTerminal(tree, keys, tty) : render(tree);
  // ink-testing-library's terminal is 100 columns with no height: set the size asked for (a wide one by default, so
  // the screens' tests see whole cells), and tell Ink it changed, as a terminal does.
  resize(inst.stdout, opts.size ?? { columns: 200, rows: 60 });
  const run: UiRun = {
    ...inst,
    api,
    copied,
    saved,
    remembered,
    async type(...keys) {
      for (const k of keys) {
        const before = inst.frames.length;
        inst.stdin.write(k);
        // Wait for Ink to draw the key's effect (a busy machine can take a while); keys that change nothing time out.
        // Ink also waits a moment after a lone Escape in case more of a key sequence follows.
        const end = Date.now() + (k === KEY.esc ? 1000 : 800);
        await tick(k === KEY.esc ? 120 : 10);
        while (inst.frames.length === before && Date.now() < end) await tick(10);
        await settle(20);
      }
    },
    async gone(text, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while ((inst.lastFrame() ?? '').replace(/\s+/g, ' ').includes(text)) {
        if (Date.now() > end) throw new Error(`Still see ${text} in:\n${inst.lastFrame()}`);
        await tick(20);
      }
      await tick(30);
    },
    async see(text, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        // Long texts wrap at the test terminal's width: compare with the lines joined.
        const frame = (inst.lastFrame() ?? '').replace(/\s+/g, ' ');
        if (typeof text === 'string' ? frame.includes(text) : text.test(frame)) {
          // Ink subscribes to keys in effects that run just after a frame is drawn: let them settle.
          await settle(50);
          return frame;
        }
        if (Date.now() > end) throw new Error(`Did not see ${String(text)} in:\n${frame}`);
        await tick(20);
      }
    },
  };
  return run;
}
