import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedProject, seedRun, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('RunsScreen', { timeout: 30_000 }, () => {
  it('lists requests with a failed one in red and Contact Support; opens details; renames and removes', async () => {
    const { project, run } = await seedProject(server);
    await setRow(server, 'runs', run.stamp, { state: 'Failed', message: 'Row 3 has 2 values, expected 4.' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/runs`);
    const frame = await ui.see('First fit');
    expect(frame).toMatch(/First fit\s+generate\s+Failed\s+Row 3 has 2 values/);
    expect(frame).toContain('Contact Support:');
    await ui.type(KEY.enter);
    await ui.see(/Function:\s+generate/);
    await ui.type(KEY.esc);
    await ui.see('First fit');
    await ui.type('r', ' again', KEY.enter);
    await ui.gone('New name:');
    await ui.see('First fit again');
    await ui.type('d', 'y');
    await ui.see(MESSAGES.noRequests);
    ui.unmount();
  });

  it('S and F narrow the list to a status and a function, on the server', async () => {
    const { project, upload } = await seedProject(server);
    await seedRun(server, project.stamp, upload.stamp, { name: 'Trained', function: 'fit', state: 'Finished' });
    await seedRun(server, project.stamp, upload.stamp, { name: 'Broken', function: 'fit', state: 'Failed', message: 'No rows.' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/runs`);
    await ui.see('Broken');
    await ui.type('F');
    await ui.see('function fit (F)');
    await ui.gone('First fit');
    expect(ui.lastFrame()).toContain('Trained');
    await ui.type('S', 'S', 'S', 'S');
    await ui.see('status Failed (S)');
    await ui.gone('Trained');
    expect(ui.lastFrame()).toContain('Broken');
    ui.unmount();
  });

  it('refreshes by itself while a request is not final, as the web list does', async () => {
    const { project, run } = await seedProject(server);
    await setRow(server, 'runs', run.stamp, { state: 'Processing' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/runs`);
    await ui.see(/First fit\s+generate\s+Processing/);
    await setRow(server, 'runs', run.stamp, { state: 'Finished' });
    await ui.see(/First fit\s+generate\s+Finished/, 8000);
    ui.unmount();
  });

  it('n opens the fit request, s the shrink request; a failed load shows SPEC text', async () => {
    const { project } = await seedProject(server);
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/runs`);
    await ui.see('First fit');
    await ui.type('n');
    await ui.see('Create Request');
    await ui.type(KEY.esc);
    await ui.see('First fit');
    await ui.type('s');
    await ui.see('Create Shrink Request');
    ui.unmount();
    server.failing.runList = 500;
    const failed = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/runs`);
    await failed.see(MESSAGES.loadRequests);
    failed.unmount();
  });
});
