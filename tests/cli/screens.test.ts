// Every screen of the terminal UI at 80x24 and 120x40 in tmux, as people size their terminals: every line inside
// the width (the joined capture, -J, joins no line the terminal wrapped), the frame inside the height, with the `?`
// footer open too; the sessions table keeps the address and times whole beside a browser's long user agent; a
// resize redraws at once.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '@portal/core/contract/table';
import { portal, startServer, type Started } from './harness';
import { tmuxServer } from './tmux';

const SOCKET = `portal-screens-${process.pid}`;
const EMAIL = 'screens@example.com';
const PW = 'Secret-123!';
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let server: Started;
let home: string;
let paths: string[] = [];
const { tmux, capture, start, see, ended, close } = tmuxServer(SOCKET);

beforeAll(async () => {
  server = await startServer();
  home = await mkdtemp(join(tmpdir(), 'portal-screens-'));
  // A session that lives as long as the file, so the tmux server does not exit (and race the next session) each
  // time a screen's session is killed.
  tmux('new-session', '-d', '-s', 'keep', 'sleep 3600');
  const cli = (args: string[], stdin?: string) => portal(home, server.url, args, stdin === undefined ? {} : { stdin });
  const up = await cli(
    ['signup', '--email', EMAIL, '--username', 'screens_user', '--name', 'Screens Co', '--password-stdin', '--accept-terms'],
    `${PW}\n`,
  );
  if (up.code !== 0) throw new Error(up.stderr);
  const out = async (args: string[]) => {
    const r = await cli(args);
    if (r.code !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  };
  const client = await out(['accounts', 'list', '--jq', '.[0].id']);
  const project = await out(['projects', 'create', '--name', 'A project with a name long enough to be cut somewhere', '--jq', '.id']);
  const rows = Array.from({ length: 60 }, (_, i) => [i % 7, (i * 3) % 11, (i * 5) % 13, ((i % 7) + ((i * 3) % 11)) / 10]);
  await writeFile(join(home, 'data.json'), JSON.stringify(rows));
  await out(['uploads', 'push', join(home, 'data.json'), '--project', project, '--wait']);
  const key = await out(['keys', 'create', '--name', 'Laptop', '--jq', '.id']);
  // A webhook endpoint with a 60-character name and a long URL (the worker's tries to reach it fail quietly).
  const hook = ['--url', 'https://example.com/a/long/path/to/the/receiver/of/the/billing/service', '--events', 'run.finished'];
  await out(['webhooks', 'create', ...hook, '--name', 'An endpoint whose name takes sixty characters, all of them!!', '--jq', '.id']);
  // A sign-in from a browser: its user agent is long.
  const res = await fetch(new URL(CALLS.login.path, server.url), {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${EMAIL}:${PW}`).toString('base64')}`, 'user-agent': BROWSER },
  });
  expect(res.status).toBe(200);
  const c = `/client/${client}`;
  const p = `${c}/project/${project}`;
  paths = [
    '/account',
    '/get-started',
    '/plan',
    `${c}/projects`,
    `${c}/apikeys`,
    `${c}/apikey/${key}/info`,
    `${c}/integrations`,
    `${c}/create-integration`,
    `${c}/members`,
    `${c}/audit`,
    `${c}/usage`,
    `${c}/webhooks`,
    `${p}/runs`,
    `${p}/uploads`,
    `${p}/models`,
    `${p}/create-fit-run`,
    `${p}/create-shrink-run`,
  ];
}, 300_000);
afterAll(async () => {
  close();
  await server?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** The pane as the terminal shows it, wrapped lines joined back: each inside the width, all inside the height. */
function inside(session: string, [w, h]: readonly [number, number], what: string) {
  const lines = capture(session, true).split('\n');
  const wide = lines.filter((l) => [...l].length > w);
  expect(wide, `${what}: lines wider than ${w}`).toEqual([]);
  expect(lines.length, what).toBeLessThanOrEqual(h);
}

describe('every screen in tmux', () => {
  for (const size of [
    [80, 24],
    [120, 40],
  ] as const) {
    it(`at ${size[0]}x${size[1]} nothing wraps, with the ? footer closed and open`, async () => {
      for (const [i, path] of paths.entries()) {
        const s = `w${size[0]}-${i}`;
        start(s, size, home, server.url, `ui '${path}'`);
        // The header is the first line once the screen has drawn; a loading screen settles before it is judged.
        await see(s, /^Portal · /);
        await see(s, /^(?![\s\S]*Loading…)[\s\S]*$/);
        inside(s, size, path);
        tmux('send-keys', '-t', s, '?');
        // A form's field takes the ? as text (its help line then ends in Ctrl+C quit): either way the frame is judged.
        await see(s, /(\? (fewer|more) keys|quit|\?)\s*$/m);
        inside(s, size, `${path} with ?`);
        // Ended by tmux: the screen was judged, and a form would take q as text.
        tmux('kill-session', '-t', s);
      }
    }, 240_000);
  }

  it('at 80 columns the sessions table gives a browser’s user agent what is left, the address and times whole', async () => {
    const s = 'sessions';
    start(s, [80, 24], home, server.url);
    await see(s, 'Screens Co');
    tmux('send-keys', '-t', s, '3');
    const text = await see(s, 'Mozilla');
    inside(s, [80, 24], 'sessions');
    const row = text.split('\n').find((l) => l.includes('Mozilla'))!;
    expect(row).toMatch(/Mozilla\/5\.0 \(Maci.*…\s+127\.0\.0\.1\s+\S/);
    // The times whole: the last column reads "... ago" (or "just now").
    expect(row).toMatch(/(ago|now)\s*$/);
    expect(text).toContain('Last used');
    // A resize redraws at the new size at once, the table laid out again.
    tmux('resize-window', '-t', s, '-x', '120', '-y', '40');
    const wide = await see(s, /Mozilla\/5\.0 \(Macintosh; Intel Mac OS X 10_15/, 2000);
    expect(Math.max(...wide.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(120);
    tmux('send-keys', '-t', s, 'q');
    await ended(s);
  });
});
