// The terminal UI on the shared data cache: Back draws a list seen before at once and reads it again behind it, and
// the terminal's focus coming back (its focus report on stdin) reads again what went stale meanwhile.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOCUS_REFRESH_MIN_MS as STALE_MS } from '@portal/core';
import { seedEmptyProject, seedProject, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });
const FOCUS_IN = '\x1b[I';
const FOCUS_OUT = '\x1b[O';
const reads = (name: string) => server.calls.filter((c) => c === name).length;
/** As after a minute on another screen or in another window: past the time an answer is trusted. */
const later = () => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + STALE_MS + 1, shouldAdvanceTime: true });

afterEach(() => void vi.useRealTimers());

describe('the terminal UI on the shared cache', { timeout: 30_000 }, () => {
  it('Back shows the project list at once, never loading, and reads it again behind it', async () => {
    await seedProject(server);
    await seedEmptyProject(server, { name: 'Second project' });
    const ui = renderUi(server, `/client/${server.user.client}/projects`);
    await ui.see(/Second project .*Churn /);
    await ui.type(KEY.down, KEY.enter);
    await ui.see('Requests');
    await seedEmptyProject(server, { name: 'Made meanwhile' });
    later();
    const before = reads('bucketList');
    const from = ui.frames.length;
    await ui.type(KEY.esc);
    await ui.see('Made meanwhile');
    // Every frame since Back: the list's names, from the first one on, and no loading state.
    const frames = ui.frames.slice(from).filter((f) => !f.includes('Requests'));
    expect(frames[0]).toMatch(/Second project[\s\S]*Churn/);
    expect(frames.some((f) => f.includes('Loading'))).toBe(false);
    expect(reads('bucketList')).toBe(before + 1);
    ui.unmount();
  });

  it("the terminal's focus coming back shows a rename made elsewhere; its reports never reach a field", async () => {
    const project = await seedEmptyProject(server, { name: 'Named here' });
    const ui = renderUi(server, `/client/${server.user.client}/projects`, { terminal: true });
    await ui.see('Named here');
    ui.stdin.write(FOCUS_OUT);
    await setRow(server, 'buckets', project.stamp, { name: 'Renamed elsewhere' });
    later();
    const before = reads('bucketList');
    ui.stdin.write(FOCUS_IN);
    await ui.see('Renamed elsewhere');
    expect(reads('bucketList')).toBe(before + 1);
    // Focus reports among typed keys: the filter gets the keys only.
    await ui.type('/', `Re${FOCUS_OUT}${FOCUS_IN}na`);
    const frame = await ui.see('Rena');
    expect(frame).not.toMatch(/\[[IO]/);
    ui.unmount();
  });
});
