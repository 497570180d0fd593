// A new account's first hour in the terminal: `portal signup` and `portal login` print the next step, and the
// terminal UI's first screen shows the Get started steps (core's, as on the web) at 80x24 and 120x40, every line
// inside the terminal; the path can be put away (kept in the config file) and found again.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portal, startServer, type Started } from './harness';
import { tmuxServer } from './tmux';

const SOCKET = `portal-start-${process.pid}`;
let server: Started;
let home: string;
const { tmux, capture, start, see, press, ended, close } = tmuxServer(SOCKET);

/** Every line of the pane, lines the terminal wrapped joined back: none is wider than the terminal. */
const fits = (session: string, width: number) => {
  const lines = capture(session, true).split('\n');
  expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(width);
  return lines;
};

beforeAll(async () => {
  server = await startServer();
  home = await mkdtemp(join(tmpdir(), 'portal-start-'));
}, 300_000);
afterAll(async () => {
  close();
  await server?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('Get started in the terminal', () => {
  it('signup and login print the next step of a new account', async () => {
    const up = await portal(
      home,
      server.url,
      ['signup', '--email', 'start@example.com', '--username', 'start_user', '--name', 'Start Co', '--password-stdin', '--accept-terms'],
      { stdin: 'Secret-123!\n' },
    );
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toContain('Next: create a project: portal projects create --name NAME');
    const login = await portal(home, server.url, ['login', '--email', 'start@example.com', '--password-stdin'], { stdin: 'Secret-123!\n' });
    expect(login.stderr).toContain('Next: create a project: portal projects create --name NAME');
    // --json prints only JSON: no hint there.
    const json = await portal(home, server.url, ['login', '--email', 'start@example.com', '--password-stdin', '--json'], {
      stdin: 'Secret-123!\n',
    });
    expect(json.stderr).not.toContain('Next:');
  });

  for (const [w, h] of [
    [80, 24],
    [120, 40],
  ] as const) {
    it(`at ${w}x${h} the first screen of a new account shows the steps; g opens them, Enter a step's screen`, async () => {
      const s = `first${w}`;
      start(s, [w, h], home, server.url);
      let text = await see(s, 'Get started (0 of 4 done)');
      for (const step of ['○ Create a project', '○ Upload data', '○ Train a model', '○ Create an API key']) expect(text).toContain(step);
      expect(text).toContain('Start Co');
      fits(s, w);
      text = await press(s, 'g', 'A project holds your uploads');
      expect(text.split('\n')[0]).toMatch(/^Portal · My Account › Get started/);
      fits(s, w);
      await press(s, 'Enter', 'No Projects Found');
      fits(s, w);
      tmux('send-keys', '-t', s, 'q');
      await ended(s);
    });
  }

  it('the path ticks a step once done, and x puts it away for good (the config file keeps it) until x again', async () => {
    expect((await portal(home, server.url, ['projects', 'create', '--name', 'First'])).code).toBe(0);
    const s = 'hide';
    start(s, [80, 24], home, server.url);
    await see(s, 'Get started (1 of 4 done)');
    await see(s, '✓ Create a project');
    await press(s, 'g', 'x hides this path');
    await press(s, 'x', 'Hidden from My Account');
    tmux('send-keys', '-t', s, 'q');
    await ended(s);
    expect(
      JSON.parse(await readFile(join(home, '.config', 'portal', 'config.json'), 'utf8')).hosts[new URL(server.url).origin].hidden,
    ).toHaveLength(1);
    const login = await portal(home, server.url, ['login', '--email', 'start@example.com', '--password-stdin'], { stdin: 'Secret-123!\n' });
    expect(login.stderr).not.toContain('Next:');
    start(s, [80, 24], home, server.url);
    await see(s, 'Start Co');
    expect(capture(s)).not.toContain('Get started');
    await press(s, 'g', 'Hidden from My Account');
    await press(s, 'x', 'x hides this path');
    tmux('send-keys', '-t', s, 'q');
    await ended(s);
  });
});
