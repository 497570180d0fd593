// The builds `portal` runs in: each module's CommonJS build is read with the code cache made for it, and it runs the
// same with a cache this Node refuses; its import() calls (libraries from the full build's chunks) work either way.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFileOf, compileBuild } from '../../packages/tui/src/codeCache';
import { portal, PORTAL, startServer, type Started } from './harness';

const DIST = dirname(PORTAL);
let server: Started;
let home: string;
let copy: string;

beforeAll(async () => {
  server = await startServer();
  home = await mkdtemp(join(tmpdir(), 'portal-builds-'));
  copy = await mkdtemp(join(tmpdir(), 'portal-dist-'));
  await cp(DIST, copy, { recursive: true });
});
afterAll(async () => {
  await server?.stop();
  for (const d of [home, copy]) if (d) await rm(d, { recursive: true, force: true });
});

describe("the modules' builds", () => {
  it("every module's build has a code cache that this Node reads (not refused, so not compiled again)", async () => {
    const modules = await readdir(join(DIST, 'cmd'));
    expect(modules).toEqual(expect.arrayContaining(['projects', 'uploads', 'auth']));
    for (const name of modules) {
      const file = join(DIST, 'cmd', name, 'portal.cjs');
      const script = compileBuild(file, await readFile(cacheFileOf(file)));
      expect({ name, refused: script.cachedDataRejected }).toEqual({ name, refused: false });
    }
  });

  it('the launcher is CommonJS beside the full build of ES modules, and both run', async () => {
    const typeOf = async (dir: string) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).type;
    expect({ launcher: await typeOf(DIST), full: await typeOf(join(DIST, 'app')) }).toEqual({ launcher: 'commonjs', full: 'module' });
    // `--version` and `--help` run in the full build (dist/app/), loaded by the CommonJS launcher with import().
    const version = await portal(home, server.url, ['--version']);
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/), stderr: '' });
  });

  it('signs up (the config written through conf, from the full build) and lists with --jq (jq, from the full build)', async () => {
    const up = await portal(
      home,
      server.url,
      ['signup', '--email', 'builds@example.com', '--username', 'builds_user', '--name', 'Builds Co', '--password-stdin', '--accept-terms'],
      { stdin: 'Builds-123!\n' },
    );
    expect(up).toMatchObject({ code: 0, stderr: expect.stringMatching(/^Signed up and signed in as builds@example\.com\n/) });
    expect(up.stderr).not.toMatch(/warning/i);
    const made = await portal(home, server.url, ['projects', 'create', '--name', 'Cached', '--json']);
    expect(made.code).toBe(0);
    const listed = await portal(home, server.url, ['projects', 'list', '--jq', '.[].name']);
    expect(listed).toEqual({ code: 0, stdout: 'Cached\n', stderr: '' });
  });

  it('a cache this Node refuses (another Node made it, or it is damaged) only costs time: the same answers', async () => {
    for (const name of ['projects', 'auth']) await writeFile(cacheFileOf(join(copy, 'cmd', name, 'portal.cjs')), 'not a code cache');
    const run = (args: string[]) => portal(home, server.url, args, { bin: join(copy, 'portal.js') });
    expect(await run(['projects', 'list', '--jq', '.[].name'])).toEqual({ code: 0, stdout: 'Cached\n', stderr: '' });
    expect(await run(['projects', 'list', '--jq', '.['])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--jq: .*syntax error/),
    });
    const who = await run(['whoami']);
    expect(who.code).toBe(0);
    expect(who.stdout).toContain('builds@example.com');
  });
});
