import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedProject, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('ProjectsScreen', { timeout: 30_000 }, () => {
  it('shows the empty text, creates with the title rule, renames and removes', async () => {
    const ui = renderUi(server, '/client/cli000001/projects');
    await ui.see(MESSAGES.noProjects);
    await ui.type('n', '   ', KEY.enter);
    await ui.see(MESSAGES.titleCreate);
    await ui.type('Churn', KEY.enter);
    await ui.see(/Churn\s+0\s+0/);
    await ui.type('r', ' v2', KEY.enter);
    await ui.gone('New name:');
    await ui.see('Churn v2');
    await ui.type('d', 'y');
    await ui.see(MESSAGES.noProjects);
    ui.unmount();
  });

  it('Open goes to the requests when the project has uploads, else to the shrink request', async () => {
    const { bucket } = seedProject(server.state);
    server.state.buckets.push({ stamp: 'bktempty01', name: 'Empty', runs: 0, rends: 0, createdAt: 1_700_000_001, client: 'cli000001', active: 1 });
    const ui = renderUi(server, '/client/cli000001/projects');
    // Newest first, as on the web: Empty (created later) is on top.
    await ui.see(/Empty .*Churn /);
    await ui.type(KEY.down, KEY.enter);
    await ui.see('Requests');
    expect(ui.remembered.project).toBe(bucket.stamp);
    await ui.type(KEY.esc, KEY.up, KEY.enter);
    await ui.see('Create Shrink Request');
    expect(ui.remembered.project).toBe('bktempty01');
    ui.unmount();
  });

  it('the menu opens with Tab and moves to other sections', async () => {
    const ui = renderUi(server, '/client/cli000001/projects');
    await ui.see(MESSAGES.noProjects);
    await ui.type(KEY.tab, KEY.down, KEY.enter);
    await ui.see('Compare Plans');
    await ui.type(KEY.tab, ...Array(8).fill(KEY.down), KEY.enter);
    await ui.see('Login');
    expect(ui.api.tokens.get()).toBeNull();
    ui.unmount();
  });

  it('q quits', async () => {
    const ui = renderUi(server, '/client/cli000001/projects');
    await ui.see(MESSAGES.noProjects);
    await ui.type('q');
    expect(ui.lastFrame()).toBeDefined();
    ui.unmount();
  });
});
