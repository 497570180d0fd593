// The built interactive UI in tmux at 80x24 and 200x50: a 60-row list with a 60-character name, what the terminal
// really shows (tmux capture-pane), resizing, and keys typed before the first frame.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portal, startServer, type Started } from './harness';
import { tmuxServer } from './tmux';

const NAME60 = 'A project named with exactly sixty characters, to be cut ok!';
const SOCKET = `portal-test-${process.pid}`;
let server: Started;
let home: string;
let signedOut: string;

const { tmux, capture: screen, start: startIn, see, ended, close } = tmuxServer(SOCKET);
const start = (name: string, size: [number, number], homeDir: string) => startIn(name, size, homeDir, server.url);

beforeAll(async () => {
  server = await startServer();
  home = await mkdtemp(join(tmpdir(), 'portal-tmux-'));
  signedOut = await mkdtemp(join(tmpdir(), 'portal-tmux-out-'));
  const up = await portal(
    home,
    server.url,
    ['signup', '--email', 'tmux@example.com', '--username', 'tmux_user', '--name', 'Tmux Works', '--password-stdin', '--accept-terms'],
    { stdin: 'Secret-123!\n' },
  );
  if (up.code !== 0) throw new Error(up.stderr);
  const client = JSON.parse((await portal(home, server.url, ['accounts', 'list', '--json'])).stdout)[0].stamp;
  const names = [...Array.from({ length: 59 }, (_, i) => `Project ${String(i + 1).padStart(2, '0')}`), NAME60];
  for (const name of names) {
    const r = await portal(home, server.url, ['api', '-X', 'PUT', 'bucket/item', '-f', `client=${client}`, '-f', `name=${name}`]);
    if (r.code !== 0) throw new Error(r.stderr);
  }
}, 300_000);
afterAll(async () => {
  // Nothing left running: every session ended.
  close();
  await server?.stop();
  for (const d of [home, signedOut]) if (d) await rm(d, { recursive: true, force: true });
});

describe('portal in tmux', () => {
  for (const [w, h] of [
    [80, 24],
    [200, 50],
  ] as const) {
    it(`at ${w}x${h}: the projects list windows around the selection and every line fits`, async () => {
      const s = `walk${w}`;
      start(s, [w, h], home);
      await see(s, 'Tmux Works');
      tmux('send-keys', '-t', s, 'Enter');
      // Newest first, as on the web: the 60-character name (made last) is the selected first row.
      let text = await see(s, /1-\d+ of 60/);
      const lines = text.replace(/\n$/, '').split('\n');
      expect(lines[0]).toMatch(/^Portal · My Account › Tmux Works\s+\[Contact Support\]$/);
      expect(lines.length).toBeLessThanOrEqual(h);
      expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(w);
      expect(text).toContain('Name');
      tmux('send-keys', '-t', s, 'End');
      text = await see(s, /\d+-60 of 60/);
      expect(text).toMatch(/› Project \d\d/);
      expect(text.split('\n')[0]).toMatch(/^Portal · /);
      tmux('send-keys', '-t', s, 'Home');
      text = await see(s, /1-\d+ of 60/);
      expect(text).toMatch(/› A project n/);
      // Whole at both sizes: below 100 columns the side menu folds away and the other columns give way first.
      expect(text).toContain(NAME60);
      // Resizing redraws at the new size.
      tmux('resize-window', '-t', s, '-x', String(w === 80 ? 200 : 80), '-y', String(w === 80 ? 50 : 24));
      text = await see(s, w === 80 ? 'Logout' : /1-15 of 60/);
      expect(text).toContain(`› ${NAME60}`);
      expect(text.split('\n')[0]).toMatch(/^Portal · /);
      expect(Math.max(...text.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(w === 80 ? 200 : 80);
      tmux('send-keys', '-t', s, 'q');
      await ended(s);
    });
  }

  it('at 80x24 the account screen sets up two-factor sign-in with a QR code drawn in the terminal, every line inside it', async () => {
    const s = 'qr';
    start(s, [80, 24], home);
    await see(s, 'Tmux Works');
    tmux('send-keys', '-t', s, 'Right');
    await see(s, 'Press Enter to set it up.');
    tmux('send-keys', '-t', s, 'Enter');
    const text = await see(s, 'Copy the URI');
    const lines = text.replace(/\n$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^Portal · My Account/);
    // The QR code's finder patterns (7 modules wide) in half blocks, beside the secret.
    expect(text).toMatch(/█▀▀▀▀▀█|█ ▄▄▄ █/);
    expect(text).toMatch(/Secret\n.*\b[A-Z2-7]{32}\b/);
    // Esc cancels the setup without leaving the screen; nothing was turned on.
    tmux('send-keys', '-t', s, 'Escape');
    await see(s, 'Press Enter to set it up.');
    tmux('send-keys', '-t', s, 'q');
    await ended(s);
  });

  it('keys typed before the first frame are kept and never shown: a typed-ahead sign-in works', async () => {
    const s = 'ahead';
    start(s, [80, 24], signedOut);
    // As soon as `portal` has the terminal (raw mode: no echo), long before the UI has drawn. Keys typed before that
    // are the terminal driver's, which echoes them whatever program is starting.
    const tty = tmux('display', '-p', '-t', s, '#{pane_tty}').trim();
    const end = Date.now() + 10_000;
    while (!/(^|\s)-echo(\s|$)/.test(execFileSync('stty', ['-F', tty, '-a'], { encoding: 'utf8' })) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 2));
    expect(screen(s)).not.toContain('Email');
    tmux('send-keys', '-t', s, '-l', 'tmux@example.com\tSecret-123!\r');
    const text = await see(s, 'Tmux Works');
    expect(text).not.toContain('Secret-123!');
    tmux('send-keys', '-t', s, 'q');
    await ended(s);
  });
});
