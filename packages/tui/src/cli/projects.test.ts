import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { portal, signedIn } from '../../test/cli';
import { rows, withTestApi } from '@portal/testkit/api';
import type { memoryStore } from '../store';

let store: ReturnType<typeof memoryStore>;
const server = withTestApi({ worker: false });
beforeEach(async () => {
  store = signedIn(server);
});

/** The user's projects as the server's database holds them, removed ones included. */
const projectRows = () =>
  rows(server)
    .selectFrom('buckets')
    .select(['stamp', 'name', 'active'])
    .where('client', '=', server.user.client)
    .orderBy('created_at')
    .orderBy('stamp')
    .execute();

describe('portal projects', { timeout: 30_000 }, () => {
  it('empty list: SPEC text on stderr, nothing on stdout; --json prints []', async () => {
    const r = await portal(['projects', 'list'], { store });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(MESSAGES.noProjects);
    expect(JSON.parse((await portal(['projects', 'list', '--json'], { store })).stdout)).toEqual([]);
  });

  it('create, list, rename, open and remove', async () => {
    const c = await portal(['projects', 'create', '--name', '  Churn  ', '--json'], { store });
    expect(c.code).toBe(0);
    const created = JSON.parse(c.stdout);
    expect(created).toMatchObject({ name: 'Churn', runs: 0, rends: 0 });
    expect(c.stderr).toContain(`Created project Churn (${created.stamp})`);

    const list = await portal(['projects', 'list'], { store });
    expect(list.stdout).toMatch(new RegExp(`^Churn\\t${created.stamp}\\t0\\t0\\t`));

    const ren = await portal(['projects', 'rename', created.stamp, '--name', 'Churn v2'], { store });
    expect(ren.code).toBe(0);
    expect(await projectRows()).toEqual([{ stamp: created.stamp, name: 'Churn v2', active: 1 }]);

    const open = await portal(['projects', 'open', created.stamp], { store });
    expect(open.code).toBe(0);
    expect(store.host(server.url).get('project')).toBe(created.stamp);

    const rm = await portal(['projects', 'remove', created.stamp, '--yes'], { store });
    expect(rm.code).toBe(0);
    expect(store.host(server.url).get('project')).toBeUndefined();
    expect((await portal(['projects', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noProjects);
    expect(await projectRows()).toEqual([{ stamp: created.stamp, name: 'Churn v2', active: 0 }]);
  });

  it('a title too long is refused with SPEC text before any call', async () => {
    const r = await portal(['projects', 'create', '--name', 'x'.repeat(61)], { store });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(MESSAGES.titleCreate);
    expect(server.calls).toEqual([]);
    const rn = await portal(['projects', 'rename', 'whatever', '--name', '   '], { store });
    expect(rn.stderr.trim()).toBe(MESSAGES.titleRename);
  });

  it('an unknown id gives the failure message and exit 1', async () => {
    const r = await portal(['projects', 'rename', 'nope', '--name', 'X'], { store });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`${MESSAGES.renameProject} Project not found`);
  });

  it('remove asks on a terminal, needs --yes without one', async () => {
    await portal(['projects', 'create', '--name', 'A'], { store });
    const [{ stamp: id }] = await projectRows();
    const piped = await portal(['projects', 'remove', id], { store });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('--yes is required');
    const no = await portal(['projects', 'remove', id], { store, tty: true, answers: ['n'] });
    expect(no.code).toBe(2);
    expect((await projectRows())[0].active).toBe(1);
    const yes = await portal(['projects', 'remove', id], { store, tty: true, answers: ['y'] });
    expect(yes.code).toBe(0);
    expect(yes.prompts[0]).toBe(`Remove project ${id}? (y/N): `);
    expect((await projectRows())[0].active).toBe(0);
  });

  it('create asks for the name on a terminal, and names the flag without one', async () => {
    const tty = await portal(['projects', 'create'], { store, tty: true, answers: ['Asked'] });
    expect(tty.code).toBe(0);
    expect(tty.prompts).toEqual(['Project name: ']);
    expect((await projectRows()).map((b) => b.name)).toEqual(['Asked']);
    const piped = await portal(['projects', 'create'], { store });
    expect(piped.code).toBe(2);
    expect(piped.stderr.trim()).toBe('--name is required (no terminal to ask on)');
  });

  it('project commands pick the only project, or ask for --project', async () => {
    await portal(['projects', 'create', '--name', 'A'], { store });
    expect((await portal(['runs', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noRequests);
    await portal(['projects', 'create', '--name', 'B'], { store });
    const r = await portal(['runs', 'list'], { store });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--project <id>');
    expect((await portal(['runs', 'list', '--project', 'zzz'], { store })).stderr).toContain('No project zzz');
  });
});
