// The built interactive UI in a tmux server of its own (one per test file): sessions at a given size, what the
// terminal really shows (capture-pane), and waiting for a session's program to end.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { PORTAL } from './harness';

export function tmuxServer(socket: string) {
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

  /**
   * What the pane shows, each line without its trailing blanks (the joined capture, -J, keeps them) and no blank lines
   * at the end; `joined`: lines the terminal wrapped are joined back, so a wrapped line shows as one too long.
   */
  const capture = (session: string, joined = false) =>
    tmux('capture-pane', '-p', ...(joined ? ['-J'] : []), '-t', session)
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')
      .replace(/\n+$/, '');

  /** Starts `portal` (with `args`, e.g. `ui 'URL'`) signed in as `home` holds, against `api`, in a session of this size. */
  function start(session: string, size: readonly [number, number], home: string, api: string, args = '') {
    const env = `HOME=${home} XDG_CONFIG_HOME=${join(home, '.config')} PORTAL_API=${api} TERM=xterm-256color`;
    // Without CI: Ink draws only the last frame when it believes it runs in CI (as `npm test` under CI does), and a
    // person at a terminal is what these tests play.
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      String(size[0]),
      '-y',
      String(size[1]),
      `exec env -u CI ${env} ${process.execPath} ${PORTAL}${args ? ` ${args}` : ''}`,
    );
  }

  /** Waits until the pane shows `what`; resolves to what it shows. */
  async function see(session: string, what: string | RegExp, timeoutMs = 20_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const text = capture(session);
      if (typeof what === 'string' ? text.includes(what) : what.test(text)) return text;
      if (Date.now() > end) throw new Error(`Did not see ${String(what)} in:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Types `key` (tmux's names: 'Enter', 'Escape', ...) and waits until the pane shows `what`; resolves to what it shows. */
  function press(session: string, key: string, what: string | RegExp): Promise<string> {
    tmux('send-keys', '-t', session, key);
    return see(session, what);
  }

  /** Waits until the session's program has ended (its pane, and so the session, closes). */
  async function ended(session: string): Promise<void> {
    const end = Date.now() + 10_000;
    for (;;) {
      try {
        tmux('has-session', '-t', session);
      } catch {
        return;
      }
      if (Date.now() > end) throw new Error(`${session} is still running:\n${capture(session)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Ends the tmux server; none left running means every session had ended. */
  function close() {
    try {
      tmux('kill-server');
    } catch (e) {
      expect(String(e)).toMatch(/no server|error connecting/);
    }
  }

  return { tmux, capture, start, see, press, ended, close };
}
