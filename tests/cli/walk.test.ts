// Every screen of core's table opened with `portal ui URL` in tmux at 80x24, 100x30 and 200x50, with 60-character
// names and a long email: no line wrapped by the terminal (capture-pane -J joins nothing), nothing past the right
// edge, names and emails whole where the screen lists them, the key help line on screen; and a resize each way that
// leaves no line of the old frame behind.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENS, screenPath, type ScreenParams } from '@portal/core';
import { portal, startServer, type Started } from './harness';
import { tmuxServer } from './tmux';

const NAME60 = 'Quarterly churn forecast for the northern region, fiscal 226';
if (NAME60.length !== 60) throw new Error('NAME60 must have 60 characters');
const EMAIL = 'engineering.team.lead.2026@analytical-engines.example';
const INVITED = 'a.very.long.invited.address@example.com';
const SOCKET = `portal-walk-${process.pid}`;
const SIZES = [
  [80, 24],
  [100, 30],
  [200, 50],
] as const;

let server: Started;
let home: string;
let signedOut: string;
const params: ScreenParams = {};
let uploadId = '';

const { tmux, capture, start: startIn, ended, close } = tmuxServer(SOCKET);
const start = (name: string, size: readonly [number, number], homeDir: string, route: string) =>
  startIn(name, size, homeDir, server.url, `ui '${route}'`);

/** The frame once it has drawn its help line and stopped changing (lists have loaded). */
async function settled(s: string, timeoutMs = 20_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const text = capture(s);
    const ready = /Esc back|more keys/.test(text) && !/Loading/.test(text);
    if (ready && text === last) return text;
    last = text;
    if (Date.now() > end) throw new Error(`No settled frame in ${s}:\n${text}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * What a frame must be at this size: each line within the width, none wrapped by the terminal, the help on screen.
 * The joined capture is compared with plain ones taken just before and after it, so a frame that changed in between
 * (a name arriving) is captured again rather than read as a wrap. Resolves to the frame checked.
 */
async function expectFits(s: string, [w, h]: readonly [number, number]): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const text = await settled(s);
    const joined = capture(s, true);
    if (capture(s) !== text && attempt < 5) continue;
    const lines = text.split('\n');
    expect(lines.length, s).toBeLessThanOrEqual(h);
    expect(Math.max(...lines.map((l) => [...l].length)), `${s}:\n${text}`).toBeLessThanOrEqual(w);
    expect(joined, `${s}: a line wrapped by the terminal`).toBe(text);
    expect(text, s).toMatch(/Esc back|\? more keys/);
    return text;
  }
}

const run = async (args: string[], stdin?: string) => {
  const r = await portal(home, server.url, args, { stdin });
  if (r.code !== 0) throw new Error(`portal ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

beforeAll(async () => {
  // A session that lives for the whole file: tmux's server exits with its last session, and a new session started
  // while it shuts down fails ("server exited unexpectedly").
  tmux('new-session', '-d', '-s', 'keep', '-x', '80', '-y', '24', 'exec cat');
  server = await startServer();
  home = await mkdtemp(join(tmpdir(), 'portal-walk-'));
  signedOut = await mkdtemp(join(tmpdir(), 'portal-walk-out-'));
  await run(
    ['signup', '--email', EMAIL, '--username', 'walk_user', '--name', 'Analytical Engines Walk', '--password-stdin', '--accept-terms'],
    'Secret-123!\n',
  );
  params.clientId = JSON.parse(await run(['accounts', 'list', '--json']))[0].stamp;
  params.projectId = JSON.parse(await run(['projects', 'create', '--name', NAME60, '--json'])).stamp;
  await run(['projects', 'open', params.projectId!]);
  const data = join(home, 'rows.json');
  await writeFile(data, JSON.stringify(Array.from({ length: 20 }, (_, i) => [i, i * 2, i % 2])));
  uploadId = JSON.parse(await run(['uploads', 'push', data, '--wait', '--json'])).stamp;
  await run(['uploads', 'rename', uploadId, '--name', NAME60]);
  const fit = JSON.parse(
    await run(['fit', '--upload', uploadId, '--inputs', '2', '--outputs', '2', '--target', '1', '--name', NAME60, '--json']),
  );
  params.runId = fit.run.record.stamp;
  params.apikeyId = JSON.parse(await run(['keys', 'create', '--name', NAME60, '--json'])).clue;
  await run(['integrations', 'create', '--name', NAME60, '--token-stdin'], 'sk-test-token-of-the-walk\n');
  await run(['members', 'invite', '--email', INVITED]);
  params.quoteId = 'q_not_made_here';
}, 300_000);

afterAll(async () => {
  close();
  await server?.stop();
  for (const d of [home, signedOut]) if (d) await rm(d, { recursive: true, force: true });
});

describe('every screen with portal ui URL', () => {
  for (const size of SIZES) {
    it(
      `at ${size[0]}x${size[1]}: every line fits, none wrapped, names and emails whole, the key help on screen`,
      { timeout: 600_000 },
      async () => {
        for (const screen of SCREENS) {
          const path = screenPath(screen.id, params as ScreenParams);
          const url = `https://portal.example.com${path}${screen.id === 'invite' || screen.id === 'emailConfirm' ? '?token=abc' : ''}`;
          const s = `${screen.id}${size[0]}`;
          start(s, size, screen.auth ? home : signedOut, url);
          const text = await expectFits(s, size);
          expect(text.split('\n')[0], s).toMatch(/^Portal · /);
          if (['projects', 'apikeys', 'integrations', 'runs', 'uploads'].includes(screen.id)) expect(text, s).toContain(NAME60);
          if (screen.id === 'members') {
            expect(text, s).toContain(EMAIL);
            tmux('send-keys', '-t', s, 'i');
            await settled(s).then((t) => expect(t, s).toContain(INVITED));
          }
          tmux('send-keys', '-t', s, 'C-c');
          await ended(s);
        }
      },
    );
  }

  it('a resize either way redraws the whole frame: no stale line of the old one', async () => {
    const s = 'resize';
    start(s, [200, 50], home, screenPath('runs', params as ScreenParams));
    let text = await settled(s);
    expect(text).toContain(NAME60);
    for (const size of [
      [80, 24],
      [200, 50],
      [100, 30],
      [80, 24],
    ] as const) {
      tmux('resize-window', '-t', s, '-x', String(size[0]), '-y', String(size[1]));
      text = await expectFits(s, size);
      // One frame: the header once, at the top, and one help line.
      expect(text.match(/^Portal · /gm)).toHaveLength(1);
      expect(text.match(/Esc back|\? more keys/g)).toHaveLength(1);
    }
    tmux('send-keys', '-t', s, 'C-c');
    await ended(s);
  }, 120_000);
});
