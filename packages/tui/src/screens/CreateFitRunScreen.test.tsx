import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedProject, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('CreateFitRunScreen', { timeout: 30_000 }, () => {
  it('checks the form against the plan, then creates pile, fit and generate and opens the details', async () => {
    const { bucket } = seedProject(server.state);
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/create-fit-run`);
    await ui.see('Explainability: [ ] (not available)');
    // Submit at once: every field is reported.
    await ui.type(...Array(7).fill(KEY.tab), KEY.enter);
    let frame = await ui.see(MESSAGES.titleCreate);
    expect(frame).toContain(MESSAGES.selectUpload);
    expect(frame).toContain(MESSAGES.fillAllFields);
    // Name, choose the Ready upload, sizes over the Individual limit.
    await ui.type(...Array(7).fill(KEY.shiftTab), 'My fit', KEY.tab, KEY.enter, '4', KEY.tab, '9', KEY.tab, KEY.tab, KEY.enter, KEY.tab, KEY.enter);
    frame = await ui.see(MESSAGES.planLimitInputs('Individual', 3));
    expect(frame).toContain(MESSAGES.planLimitOutputs('Individual', 5));
    expect(frame).toContain('Upgrade:');
    await ui.type(...Array(5).fill(KEY.shiftTab), '\u007F', '3', KEY.tab, '\u007F', '5', ...Array(4).fill(KEY.tab), KEY.enter);
    frame = await ui.see(/Function:\s+generate/);
    expect(frame).toContain('My fit');
    expect(server.state.calls.filter((c) => c === 'runCreate')).toHaveLength(2);
    ui.unmount();
  });

  it('labels the sizes with the plan maximum; an upload without a .json file cannot be used', async () => {
    const { bucket, rend } = seedProject(server.state);
    Object.assign(rend.upload.list[0], { name: 'data.txt', file: { ...rend.upload.list[0].file, name: 'data.txt' } });
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/create-fit-run`);
    const frame = await ui.see('Input column size (1-3)');
    expect(frame).toContain('Output column size (1-5)');
    await ui.see('Only Ready uploads can be chosen.');
    await ui.type('My fit', KEY.tab, KEY.enter, '3', KEY.tab, '5', KEY.tab, KEY.tab, KEY.enter, KEY.tab, KEY.enter);
    await ui.see(MESSAGES.generateFileNotFound);
    expect(server.state.calls).not.toContain('pileCreate');
    ui.unmount();
  });
});
