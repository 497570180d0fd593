import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, seedProject, seedRun, setRow, withTestApi } from '@portal/testkit/api';
import { portal, signedIn } from '../../test/cli';

const server = withTestApi({ worker: false });

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('portal runs logs, rerun and usage', { timeout: 30_000 }, () => {
  it('logs prints the events; --json one object a line; --follow prints them as they come and ends when the run ends', async () => {
    const store = signedIn(server);
    const { project, upload } = await seedProject(server);
    const run = await seedRun(server, project.stamp, upload.stamp, { function: 'fit', state: 'Processing' });
    await rows(server)
      .insertInto('run_events')
      .values({ run: run.stamp, at: 1_800_000_000, kind: 'log', message: 'Half way.', data: null })
      .execute();
    const text = await portal(['runs', 'logs', run.stamp], { store });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Z {2}state {4}Processing\n.*Z {2}log {6}Half way\.\n$/);
    const lines = (await portal(['runs', 'logs', run.stamp, '--json'], { store })).stdout.trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).kind)).toEqual(['state', 'log']);

    const calls = () => server.calls.filter((c) => c === 'runEvents').length;
    const before = calls();
    const following = portal(['runs', 'logs', run.stamp, '--follow', '--json'], { store, pollMs: 20 });
    // Still following after several polls; the run ends, and so does the command.
    await until(() => calls() >= before + 3);
    await setRow(server, 'runs', run.stamp, { state: 'Finished' });
    const r = await following;
    expect(r.code).toBe(0);
    const got = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(got.map((e) => e.data?.state ?? e.kind)).toEqual(['Processing', 'log', 'Finished']);

    expect((await portal(['runs', 'logs', 'n_nope'], { store })).stderr.trim()).toBe(MESSAGES.requestNotFound);
  });

  it('rerun makes the request again; shrinks are refused with a sentence', async () => {
    const store = signedIn(server);
    const { project, upload } = await seedProject(server);
    const fit = await seedRun(server, project.stamp, upload.stamp, { function: 'fit', state: 'Finished' });
    const gen = await seedRun(server, project.stamp, upload.stamp, { name: 'Gen', function: 'generate', state: 'Finished' });
    await setRow(server, 'runs', gen.stamp, { fit: fit.stamp });
    const r = await portal(['runs', 'rerun', gen.stamp], { store });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Started request n_\S+\n$/);
    const shrink = await seedRun(server, project.stamp, upload.stamp, { function: 'shrink' });
    const refused = await portal(['runs', 'rerun', shrink.stamp], { store });
    expect(refused.code).toBe(1);
  });

  it('usage prints a row a day with a text bar on a terminal, totals on stderr, and --json the usage object', async () => {
    const store = signedIn(server);
    const { project, upload } = await seedProject(server);
    await seedRun(server, project.stamp, upload.stamp, { function: 'fit', createdAt: Math.floor(Date.now() / 1000) });
    const tty = await portal(['usage', '--days', '3'], { store, tty: true });
    expect(tty.code, tty.stderr).toBe(0);
    const lines = tty.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^DATE\s+FITS\s+GENERATES\s+SHRINKS\s+PARAMETERS\s+QUOTED\s+REQUESTS$/);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/█{20}$/);
    expect(tty.stderr).toMatch(/last 3 days: \d+ requests/);
    const json = JSON.parse((await portal(['usage', '--days', '3', '--json'], { store })).stdout);
    expect(json.days).toHaveLength(3);
    expect(json.totals.fits).toBeGreaterThanOrEqual(1);
    expect((await portal(['usage', '--days', '0'], { store })).code).toBe(2);
  });
});
