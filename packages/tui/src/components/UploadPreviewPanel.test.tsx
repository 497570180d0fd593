// The uploads screen's preview against the real server and worker: p shows the selected upload's first file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedEmptyProject, withTestApi } from '@portal/testkit/api';
import { portal, signedIn } from '../../test/cli';
import { renderUi } from '../../test/ui';

const server = withTestApi();

describe('the uploads screen preview', { timeout: 60_000 }, () => {
  it('p shows the first rows and column statistics of the selected upload, and closes again', async () => {
    const project = await seedEmptyProject(server);
    const dir = await mkdtemp(join(tmpdir(), 'portal-tui-preview-'));
    try {
      await writeFile(join(dir, 'heights.txt'), 'height weight\n1.5 60\n1.7 nan\n');
      const r = await portal(['uploads', 'push', 'heights.txt', '--wait', '--project', project.stamp], {
        store: signedIn(server),
        cwd: dir,
      });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/uploads`);
    await ui.see('heights.txt');
    await ui.type('p');
    const frame = await ui.see('COLUMN');
    expect(frame).toContain('Preview of heights.txt');
    expect(frame).toMatch(/# +HEIGHT +WEIGHT/);
    expect(frame).toMatch(/weight +integer +60 +60 +60 +1/);
    await ui.type('p');
    await ui.gone('Preview of heights.txt');
    ui.unmount();
  });
});
