// `portal runs map` against the real server and worker: a generate request's map as braille dots with its legend.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECTION_NOTES } from '@portal/core';
import { portal, signedIn } from '../../test/cli';
import { seedProject, withTestApi } from '@portal/testkit/api';
import type { memoryStore } from '../store';

const server = withTestApi();
let store: ReturnType<typeof memoryStore>;
let dir: string;
beforeEach(async () => {
  store = signedIn(server);
  dir = await mkdtemp(join(tmpdir(), 'portal-map-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('portal runs map', { timeout: 120_000 }, () => {
  it("draws a generate request's map in braille within 80 columns, with its legend and the axes' variance", async () => {
    const project = (await seedProject(server)).project.stamp;
    const rows = Array.from({ length: 200 }, (_, i) => [(i % 2 ? 3 : -3) + (i % 7) / 20, (i % 2 ? 3 : -3) - (i % 5) / 20, i % 2]);
    await writeFile(join(dir, 'two.json'), JSON.stringify(rows));
    const up = await portal(['uploads', 'push', 'two.json', '--wait', '--json', '--project', project], { store, cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const upload = JSON.parse(up.stdout).stamp;
    const args = ['--upload', upload, '--inputs', '2', '--outputs', '3', '--target', '1', '--task', 'classification'];
    const fit = await portal(['fit', ...args, '--wait', '--json', '--project', project], { store, cwd: dir });
    expect(fit.code, fit.stderr).toBe(0);
    const run = JSON.parse(fit.stdout).generate.record.stamp;
    const r = await portal(['runs', 'map', run], { store, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/[\u2801-\u28ff]/);
    expect(r.stdout).toContain('Colour: column 3  ● 0  ● 1');
    expect(r.stdout).toMatch(/Horizontal axis explains \d+% of the variance, vertical \d+%/);
    // No colour codes when the output is not a terminal.
    expect(r.stdout).not.toContain('\x1b[');
    const j = await portal(['runs', 'map', run, '--json'], { store, cwd: dir });
    expect(JSON.parse(j.stdout).projection.x).toHaveLength(200);
  });

  it('names the classes of a text target in the legend and colours by any column with --colour-by', async () => {
    const project = (await seedProject(server)).project.stamp;
    const names = ['setosa', 'versicolor', 'virginica'];
    const table = Array.from({ length: 90 }, (_, i) => ({
      petal: (i % 3) * 2 + Math.sin(i) * 0.1,
      width: Math.cos(i * 3),
      wild: i % 2 === 0,
      species: names[i % 3],
    }));
    await writeFile(join(dir, 'flowers.json'), JSON.stringify(table));
    const up = await portal(['uploads', 'push', 'flowers.json', '--wait', '--json', '--project', project], { store, cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const upload = JSON.parse(up.stdout).stamp;
    const args = ['--upload', upload, '--target-column', 'species', '--input-columns', 'petal,width,wild', '--name', 'Flowers'];
    const fit = await portal(['fit', ...args, '--wait', '--json', '--project', project], { store, cwd: dir });
    expect(fit.code, fit.stderr).toBe(0);
    const run = JSON.parse(fit.stdout).generate.record.stamp;
    const own = await portal(['runs', 'map', run], { store, cwd: dir });
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toContain('Colour: species  ● setosa  ● versicolor  ● virginica');
    const wild = await portal(['runs', 'map', run, '--colour-by', 'wild'], { store, cwd: dir });
    expect(wild.code, wild.stderr).toBe(0);
    expect(wild.stdout).toContain('Colour: wild  ● false  ● true');
    const wrong = await portal(['runs', 'map', run, '--colour-by', 'colour'], { store, cwd: dir });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('This map cannot be coloured by "colour": choose one of "species"');
  });

  it('a request without a map says why', async () => {
    const { run } = await seedProject(server);
    const r = await portal(['runs', 'map', run.stamp], { store, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(PROJECTION_NOTES.none);
  });
});
