import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { T0, rows, seedEmptyProject, seedProjects, seedProject, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('ProjectsScreen', { timeout: 30_000 }, () => {
  it('shows the empty text, creates with the title rule, renames and removes', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/projects`);
    await ui.see(MESSAGES.noProjects);
    await ui.type('n', '   ', KEY.enter);
    await ui.see(MESSAGES.titleCreate);
    expect(server.calls).not.toContain('bucketCreate');
    await ui.type('Churn', KEY.enter);
    await ui.see(/Churn\s+0\s+0/);
    await ui.type('r', ' v2', KEY.enter);
    await ui.gone('New name:');
    await ui.see('Churn v2');
    await ui.type('d', 'y');
    await ui.see(MESSAGES.noProjects);
    const made = await rows(server).selectFrom('buckets').select(['name', 'active']).where('client', '=', server.user.client).execute();
    expect(made).toEqual([{ name: 'Churn v2', active: 0 }]);
    ui.unmount();
  });

  it('Open goes to the requests when the project has uploads, else to the shrink request', async () => {
    const { project } = await seedProject(server);
    const empty = await seedEmptyProject(server, { name: 'Empty' });
    await setRow(server, 'buckets', empty.stamp, { created_at: T0 + 1 });
    const ui = renderUi(server, `/client/${server.user.client}/projects`);
    // Newest first, as on the web: Empty (created later) is on top.
    await ui.see(/Empty .*Churn /);
    await ui.type(KEY.down, KEY.enter);
    await ui.see('Requests');
    expect(ui.remembered.project).toBe(project.stamp);
    await ui.type(KEY.esc, KEY.up, KEY.enter);
    await ui.see('Create Shrink Request');
    expect(ui.remembered.project).toBe(empty.stamp);
    ui.unmount();
  });

  it('projects made in the same second: the one made last comes first (the list is asked newest first)', async () => {
    for (const name of ['Made first', 'Made last']) {
      const b = await seedEmptyProject(server, { name });
      await setRow(server, 'buckets', b.stamp, { created_at: T0 });
    }
    const ui = renderUi(server, `/client/${server.user.client}/projects`);
    await ui.see(/Made last .*Made first /);
    ui.unmount();
  });

  it('the menu opens with Tab and moves to other sections', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/projects`);
    await ui.see(MESSAGES.noProjects);
    await ui.type(KEY.tab, KEY.down, KEY.enter);
    await ui.see('Compare Plans');
    await ui.type(KEY.tab, ...Array<string>(8).fill(KEY.down), KEY.enter);
    await ui.see('Login');
    expect(ui.api.tokens.get()).toBeNull();
    ui.unmount();
  });

  it('10,000 projects: newest first, 50 at a time from the server, ] and [ walk the pages, o turns the order, / searches every name', async () => {
    const { name } = await seedProjects(server, 10_000);
    const ui = renderUi(server, `/client/${server.user.client}/projects`);
    // A long list opens newest first, as a short one does, a page at a time.
    await ui.see(name(10_000));
    await ui.see(/page 1 · \] next page · o oldest first/);
    await ui.type(']');
    await ui.see(name(9_950));
    await ui.see(/page 2 · \] next page · \[ previous page/);
    await ui.gone(name(10_000));
    await ui.type('[');
    await ui.see(name(10_000));
    // o: oldest first, from the first page.
    await ui.type('o');
    await ui.see(name(1));
    await ui.see(/page 1 · \] next page · o newest first/);
    // / searches the names on the server: rows far beyond the page shown, in the order chosen.
    await ui.type('/', 'ROJECT 0999');
    await ui.see('Search: ROJECT 0999');
    const frame = await ui.see(/Project 09990[\s\S]*Project 09999/);
    expect(frame).not.toContain(name(1));
    await ui.type('x');
    await ui.see('No name matches the search.');
    ui.unmount();
  });

  it('q quits', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/projects`);
    await ui.see(MESSAGES.noProjects);
    await ui.type('q');
    expect(ui.lastFrame()).toBeDefined();
    ui.unmount();
  });

  it('Esc clears an applied filter first, and leaves the screen only when there is no filter', async () => {
    for (const name of ['Alpha', 'Beta']) await seedEmptyProject(server, { name });
    const ui = renderUi(server, '/account');
    await ui.see('Analytical Engines');
    await ui.type(KEY.enter);
    await ui.see('Beta');
    await ui.type('/', 'alp', KEY.enter);
    let frame = await ui.see('Filter: alp');
    expect(frame).not.toContain('Beta');
    await ui.type(KEY.esc);
    frame = await ui.see('Beta');
    expect(frame).not.toContain('Filter:');
    expect(frame).toContain('Alpha');
    await ui.type(KEY.esc);
    await ui.gone('Beta');
    ui.unmount();
  });
});
