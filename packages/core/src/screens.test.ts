import { describe, expect, it } from 'vitest';
import { accountOpenTarget, breadcrumbs, matchScreen, projectOpenTarget, SCREENS, screenPath, sidebar } from './screens';

describe('screens', () => {
  it("lists SPEC's 18 routes and the additions; all but SPEC's first four, the invitation and the email confirmation need sign-in", () => {
    // Beyond SPEC's 18, one a line: the team's members, audit log and invitation, the usage page, a new account's Get
    // started and the webhooks.
    const additions = [
      '/client/:clientId/members',
      '/client/:clientId/audit',
      '/invite',
      '/account/email/confirm',
      '/client/:clientId/usage',
      '/get-started',
      '/client/:clientId/webhooks',
    ];
    expect(SCREENS).toHaveLength(18 + additions.length);
    for (const path of additions) expect(SCREENS.map((s) => s.path)).toContain(path);
    expect(SCREENS.filter((s) => !s.auth).map((s) => s.path)).toEqual([
      '/',
      '/signup',
      '/forgot-password',
      '/reset-password',
      '/invite',
      '/account/email/confirm',
    ]);
  });

  it('members, the audit log and the webhooks sit in the sidebar under the client', () => {
    const client = sidebar({ clientId: 'c1' }, { clientName: 'Acme', choice: 'Cloud' }).find((g) => g.section === 'client');
    expect(client?.links.map((l) => [l.label, l.path])).toEqual(
      expect.arrayContaining([
        ['Members', '/client/c1/members'],
        ['Audit Log', '/client/c1/audit'],
        ['Webhooks', '/client/c1/webhooks'],
      ]),
    );
  });

  it('matches every route back from its own path', () => {
    const params = { clientId: 'c1', apikeyId: 'k1', projectId: 'b1', runId: 'r1', quoteId: 'q1' };
    for (const s of SCREENS) {
      const path = screenPath(s.id, params);
      expect(matchScreen(path)?.screen.id).toBe(s.id);
    }
  });

  it('reads the project id of the path SPEC writes with {projectId} and with {projectId} as projectId', () => {
    // Both spellings are the same URL; the code names the parameter in product words.
    const runs = matchScreen('/client/c1/project/b1/runs');
    const uploads = matchScreen('/client/c1/project/b1/uploads/');
    expect(runs).toMatchObject({ screen: { id: 'runs' }, params: { clientId: 'c1', projectId: 'b1' } });
    expect(uploads).toMatchObject({ screen: { id: 'uploads' }, params: { clientId: 'c1', projectId: 'b1' } });
    expect(matchScreen('/client/c1/project/b%2F1/run/r1/details')?.params).toEqual({ clientId: 'c1', projectId: 'b/1', runId: 'r1' });
    expect(matchScreen('/nowhere')).toBeNull();
    expect(screenPath('models', { clientId: 'c1', projectId: 'b1' })).toBe('/client/c1/project/b1/models');
    expect(breadcrumbs('uploads', { clientId: 'c1', projectId: 'b1' }).map((c) => c.path)).toEqual([
      '/account',
      '/client/c1/projects',
      '/client/c1/project/b1/runs',
      '/client/c1/project/b1/uploads',
    ]);
    expect(sidebar({ clientId: 'c1', projectId: 'b1' }, { choice: 'Cloud' }).map((g) => g.section)).toEqual([
      'account',
      'client',
      'project',
    ]);
  });

  it('runs breadcrumbs account > client > project > run or quote', () => {
    const p = { clientId: 'c1', projectId: 'b1', runId: 'r1' };
    expect(breadcrumbs('runDetails', p, { client: 'Acme', project: 'Proj', run: 'Req' }).map((c) => c.label)).toEqual([
      'My Account',
      'Acme',
      'Proj',
      'Req',
    ]);
    expect(
      breadcrumbs('quoteDetails', { clientId: 'c1', projectId: 'b1', quoteId: 'q1' }, { quote: 'Q' }).map((c) => [c.label, c.path]),
    ).toEqual([
      ['My Account', '/account'],
      ['Client', '/client/c1/projects'],
      ['Project', '/client/c1/project/b1/runs'],
      ['Q', '/client/c1/project/b1/quote/q1/details'],
    ]);
    expect(breadcrumbs('login', {})).toEqual([]);
  });

  it('drives every trail and sidebar link from the table: a trail runs from My Account to the screen itself', () => {
    const params = { clientId: 'c1', apikeyId: 'k1', projectId: 'b1', runId: 'r1', quoteId: 'q1' };
    for (const s of SCREENS.filter((x) => x.auth)) {
      const trail = breadcrumbs(s.id, params);
      expect(trail[0].screen).toBe('account');
      expect(trail.at(-1)).toMatchObject({ screen: s.id, label: s.crumb.label, path: screenPath(s.id, params) });
      // A crumb that names an entity is a placeholder until the name is known (the web draws a skeleton).
      expect(trail.at(-1)!.pending ?? false).toBe(!!s.crumb.name);
      expect(breadcrumbs(s.id, params, { client: 'C', project: 'P', key: 'K', run: 'R', quote: 'Q' }).some((c) => c.pending)).toBe(false);
    }
    expect(
      sidebar(params, {})
        .filter((g) => g.pending)
        .map((g) => g.section),
    ).toEqual(['client', 'key', 'project', 'run', 'quote']);
    const linked = sidebar(params, { choice: 'Cloud' }).flatMap((g) => g.links.map((l) => l.screen));
    expect(linked.sort()).toEqual(
      SCREENS.filter((s) => s.nav)
        .map((s) => s.id)
        .sort(),
    );
  });

  it('shows Projects in the sidebar only for Cloud and CloudPremise clients', () => {
    const links = (choice: string) =>
      sidebar({ clientId: 'c1' }, { choice })
        .find((g) => g.section === 'client')!
        .links.map((l) => l.label);
    expect(links('Cloud')).toContain('Projects');
    expect(links('CloudPremise')).toContain('Projects');
    expect(links('Premise')).not.toContain('Projects');
    const groups = sidebar({ clientId: 'c1', projectId: 'b1', runId: 'r1' }, { choice: 'Cloud', projectName: 'P', runName: 'R' });
    expect(groups.map((g) => g.title)).toEqual(['My Account', 'Client', 'P', 'R']);
  });

  it('opens a Premise client on its API keys, others on projects; a project on runs when it has uploads', () => {
    expect(accountOpenTarget({ stamp: 'c1', choice: 'Premise' })).toBe('/client/c1/apikeys');
    expect(accountOpenTarget({ stamp: 'c1', choice: 'Cloud' })).toBe('/client/c1/projects');
    expect(accountOpenTarget({ stamp: 'c1', choice: 'CloudPremise' })).toBe('/client/c1/projects');
    expect(projectOpenTarget('c1', { stamp: 'b1', rends: 2 })).toBe('/client/c1/project/b1/runs');
    expect(projectOpenTarget('c1', { stamp: 'b1', rends: 0 })).toBe('/client/c1/project/b1/create-shrink-run');
  });
});

describe('screenTarget', async () => {
  const { screenTarget } = await import('./screens');
  it('reads a portal path or a whole URL pasted from the browser, and every screen of the table has one', () => {
    expect(screenTarget('/client/c1/project/b1/runs')).toBe('/client/c1/project/b1/runs');
    expect(screenTarget('https://portal.example.com/client/c1/project/b1/runs/?tab=1#top')).toBe('/client/c1/project/b1/runs?tab=1');
    expect(screenTarget('client/c1/projects')).toBe('/client/c1/projects');
    expect(screenTarget('/invite?token=abc')).toBe('/invite?token=abc');
    for (const s of SCREENS) {
      const path = screenPath(s.id, { clientId: 'c1', projectId: 'b1', runId: 'r1', quoteId: 'q1', apikeyId: 'k1' });
      expect(screenTarget(`http://localhost:5173${path}`), s.id).toBe(path);
    }
  });

  it('gives null for what names no screen, hostile input included', () => {
    for (const bad of ['', '   ', '/nowhere', 'https://', '/client/%E0%A4%A/projects', 'x'.repeat(5000), 'http://[::1'])
      expect(screenTarget(bad), bad).toBeNull();
  });
});
