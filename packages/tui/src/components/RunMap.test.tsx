// The request screen's map against the real server: a Finished generate request's stored map drawn in braille.
import { describe, expect, it } from 'vitest';
import { rows, seedProject, seedRun, withTestApi } from '@portal/testkit/api';
import { renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('RunMap on the request screen', { timeout: 30_000 }, () => {
  it("draws a generate request's map with its legend and the axes' variance", async () => {
    const { project, upload } = await seedProject(server);
    const run = await seedRun(server, project.stamp, upload.stamp, { function: 'generate', state: 'Finished' });
    const n = 40;
    const projection = {
      x: Array.from({ length: n }, (_, i) => (i % 2 ? 5 : -5) + (i % 5) / 10),
      y: Array.from({ length: n }, (_, i) => (i % 3) / 10),
      key: Array.from({ length: n }, (_, i) => i % 2),
      row: Array.from({ length: n }, (_, i) => i),
      inputs: Array.from({ length: n }, (_, i) => [i]),
      keyKind: 'target',
      variance: [0.9, 0.05],
      total: n,
    };
    await rows(server)
      .insertInto('run_projections')
      .values({ run: run.stamp, body: JSON.stringify({ projection, note: null }) })
      .execute();
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/run/${run.stamp}/details`);
    const frame = await ui.see('Colour: target ● 0 ● 1');
    expect(frame).toContain('Embedding map');
    expect(frame).toMatch(/[\u2801-\u28ff]/);
    expect(frame).toContain('Horizontal axis explains 90% of the variance, vertical 5%');
    ui.unmount();
  });
});
