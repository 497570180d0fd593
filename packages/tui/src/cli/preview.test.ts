// `portal uploads preview` against the real server: each upload kind shows what it holds, within 80 columns.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portal, signedIn } from '../../test/cli';
import { seedProject, withTestApi } from '@portal/testkit/api';
import type { memoryStore } from '../store';
import { cutText, printable } from '@portal/core';
import { HOSTILE_TEXTS as HOSTILE, TERMINAL_RAW as RAW } from '../../test/hostile';

const server = withTestApi();
let store: ReturnType<typeof memoryStore>;
let dir: string;
beforeEach(async () => {
  store = signedIn(server);
  dir = await mkdtemp(join(tmpdir(), 'portal-preview-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PY_MODEL =
  'import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc1 = nn.Linear(10, 20)\n        self.fc2 = nn.Linear(20, 2)\n';

async function pushed(project: string, name: string, text: string): Promise<string> {
  await writeFile(join(dir, name), text);
  const r = await portal(['uploads', 'push', name, '--wait', '--json', '--project', project], { store, cwd: dir });
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return JSON.parse(r.stdout).stamp;
}

describe('portal uploads preview', { timeout: 60_000 }, () => {
  it('a wide table shows its first rows and column statistics in 80 columns, and --json the whole preview', async () => {
    const project = (await seedProject(server)).project.stamp;
    const rows = Array.from({ length: 120 }, (_, i) => Array.from({ length: 12 }, (_, j) => i * 1000.5 + j));
    const id = await pushed(project, 'wide.json', JSON.stringify(rows));
    const r = await portal(['uploads', 'preview', id, '--project', project], { store, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.split('\n');
    expect(Math.max(...out.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(out[0]).toBe('120 rows, 12 columns');
    expect(r.stdout).toContain('Showing the first 100 of 120 rows');
    expect(r.stdout).toMatch(/more columns? not shown/);
    expect(r.stdout).toMatch(/^100 +99,049\.5 +99,050\.5 /m);
    const j = await portal(['uploads', 'preview', id, '--project', project, '--json'], { store, cwd: dir });
    const preview = JSON.parse(j.stdout);
    expect(preview.rows).toHaveLength(100);
    expect(preview.columns).toHaveLength(12);
    expect(r.stdout).toMatch(/^column 1 +number +0 +119,060 +59,529.8 +0 +█{10}$/m);
  });

  it('a .py model lists its layers and parameters; a .txt table its header names', async () => {
    const project = (await seedProject(server)).project.stamp;
    const model = await portal(['uploads', 'preview', await pushed(project, 'net.py', PY_MODEL), '--project', project], {
      store,
      cwd: dir,
    });
    expect(model.code, model.stderr).toBe(0);
    expect(model.stdout).toContain('2 layers, 262 parameters');
    expect(model.stdout).toMatch(/Net\.fc1 +Linear +220 +1/);
    const txt = await portal(
      ['uploads', 'preview', await pushed(project, 't.txt', 'height weight\n1.5 60\n1.7 nan\n'), '--project', project],
      {
        store,
        cwd: dir,
      },
    );
    expect(txt.stdout).toMatch(/^# +HEIGHT +WEIGHT$/m);
    expect(txt.stdout).toMatch(/^weight +integer +60 +60 +60 +1 /m);
  });

  it('escapes what the file brought (ESC, OSC titles, hidden links, C1, bidi, CR/LF) in its column names', async () => {
    const project = (await seedProject(server)).project.stamp;
    const file = JSON.stringify({ columns: HOSTILE, rows: [HOSTILE.map((_, i) => i), HOSTILE.map((_, i) => i * 2)] });
    const id = await pushed(project, 'hostile.json', file);
    for (const tty of [true, false]) {
      const r = await portal(['uploads', 'preview', id, '--project', project], { store, cwd: dir, tty });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(RAW);
      expect(r.stdout).toContain(cutText(printable(HOSTILE[1]), 12).toUpperCase());
      const j = await portal(['uploads', 'preview', id, '--project', project, '--json'], { store, cwd: dir, tty });
      expect(j.stdout).not.toMatch(RAW);
      expect(JSON.parse(j.stdout).columns[1].name).toBe(HOSTILE[1]);
    }
  });
});
