import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, seedEmptyProject, seedUpload, withTestApi } from '@portal/testkit/api';
import { setCredit } from '@portal/testkit/seed';
import { portal, signedIn } from '../../test/cli';
import type { memoryStore } from '../store';

let store: ReturnType<typeof memoryStore>;
// No worker: a paid quote's run stays Pending, and nothing else changes the seeded rows.
const server = withTestApi({ worker: false });
let project: string;
let model: string;
beforeEach(async () => {
  store = signedIn(server);
  project = (await seedEmptyProject(server)).stamp;
  model = (await seedUpload(server, project, { name: 'model.py', items: [{ inputs: 1_500_000 }] })).stamp;
  // 0.6 million of free credit left: 0.9 million beyond it, one started million due.
  await setCredit(server, server.user.client, 1_000_000, 400_000);
});

const quotes = () => rows(server).selectFrom('quotes').select(['name', 'state', 'cent']).where('bucket', '=', project).execute();
const args = () => ['shrink', '--upload', model, '--name', 'Shrink one', '--project', project];

describe('portal shrink', { timeout: 30_000 }, () => {
  it('without a terminal and without --yes: a usage error (exit 2) that says so, before any call', async () => {
    const r = await portal(args(), { store });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(MESSAGES.shrinkNeedsYes);
    expect(server.calls).toEqual([]);
    expect(await quotes()).toEqual([]);
  });

  it('on a terminal: shows estimate - free credit = amount due and asks; no creates nothing (exit 2)', async () => {
    const r = await portal(args(), { store, tty: true, answers: ['n'] });
    expect(r.stderr).toContain('Estimate $0.44 - free credit $0.22 = amount due $0.22');
    expect(r.prompts).toEqual([`${MESSAGES.shrinkConfirmBilled('$0.22')} (y/N): `]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Cancelled: no quote was created.');
    expect(server.calls).not.toContain('shrinkCreate');
    expect(await quotes()).toEqual([]);
  });

  it('on a terminal, yes creates the quote the price said', async () => {
    const r = await portal([...args(), '--json'], { store, tty: true, answers: ['y'] });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).quote.record).toMatchObject({ name: 'Shrink one', state: 'Unpaid', cent: 22 });
    expect(await quotes()).toEqual([{ name: 'Shrink one', state: 'Unpaid', cent: 22 }]);
  });

  it('--yes without a terminal creates it, with the price on stderr and JSON alone on stdout', async () => {
    const r = await portal([...args(), '--yes', '--json'], { store });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Estimate $0.44 - free credit $0.22 = amount due $0.22');
    expect(JSON.parse(r.stdout).quote.record).toMatchObject({ state: 'Unpaid', cent: 22 });
    expect(r.prompts).toEqual([]);
  });

  it('free credit covering it says so in the question', async () => {
    await setCredit(server, server.user.client, 5_000_000, 0);
    const r = await portal(args(), { store, tty: true, answers: ['yes'] });
    expect(r.stderr).toContain('Estimate $0.44 - free credit $0.44 = amount due $0.00');
    expect(r.prompts).toEqual([`${MESSAGES.shrinkConfirmFree} (y/N): `]);
    expect(r.code).toBe(0);
    expect(await quotes()).toEqual([{ name: 'Shrink one', state: 'Paid', cent: 0 }]);
  });
});
