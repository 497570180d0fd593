// Starts the interactive terminal UI (Ink) for a session; loaded on demand by `portal` on a TTY.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { render } from 'ink';
import type { Session } from '../cli/context';
import { App } from './App';
import { lazyApi } from './lazyApi';
import { TerminalOut } from './terminal';
import { FOCUS_REPORTS_OFF, FOCUS_REPORTS_ON, TerminalIn } from './terminalIn';
import { loadScreen } from './routes';
import { SCREEN_BY_ID, matchScreen } from '@portal/core';

export async function startUi(session: Session, target?: string): Promise<number> {
  // Ink needs raw mode; a pipe on stdin would make it fail on the first key.
  if (!process.stdin.isTTY || !process.stdout.isTTY) return 2;
  const tokens = await session.tokens();
  const baseUrl = await session.baseUrl();
  const store = await session.store();
  const host = await session.host();
  const listeners = new Set<(message: string) => void>();
  const api = lazyApi({ ...(await session.apiOptions()), onAuthFailure: (m) => listeners.forEach((l) => l(m)) });
  const cwd = session.deps.cwd;
  // The first screen's module is loaded before the first frame, so that frame shows the screen itself.
  const initial = target ?? (tokens.get() ? '/account' : '/');
  await loadScreen((matchScreen(initial)?.screen ?? SCREEN_BY_ID.login).id);
  let interrupted = false;
  const terminal = new TerminalOut(process.stdout);
  const keys = new TerminalIn(process.stdin);
  // The terminal reports focus while the UI runs, and stops whatever ends the process.
  const focusOff = () => void process.stdout.write(FOCUS_REPORTS_OFF);
  process.once('exit', focusOff);
  process.stdout.write(FOCUS_REPORTS_ON);
  const app = render(
    <App
      onInterrupt={() => void (interrupted = true)}
      focus={keys}
      api={api}
      initial={initial}
      io={{
        cwd,
        baseUrl,
        saveFile: async (name, text) => {
          const path = resolve(cwd, name);
          await writeFile(path, text);
          return path;
        },
        remember: (key, value) => host.set(key, value),
        startDismissals: host.startDismissals,
      }}
      authFailures={{
        subscribe(fn) {
          listeners.add(fn);
          return () => void listeners.delete(fn);
        },
      }}
    />,
    // Ctrl+C is the App's key (so it can end with 130), not Ink's.
    { exitOnCtrlC: false, stdout: terminal as unknown as NodeJS.WriteStream, stdin: keys as unknown as NodeJS.ReadStream },
  );
  // Load the client's schemas while the person reads the first screen.
  setTimeout(() => void api.ready(), 0);
  await app.waitUntilExit();
  focusOff();
  process.off('exit', focusOff);
  terminal.dispose();
  await store.flush();
  return interrupted ? 130 : 0;
}
