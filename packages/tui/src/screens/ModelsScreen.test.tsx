import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedProject, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('ModelsScreen', { timeout: 30_000 }, () => {
  it('shows general and own models; renames and removes own ones; n creates a new model', async () => {
    const { bucket } = seedProject(server.state);
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/models`);
    const frame = await ui.see('Churn model');
    expect(frame).toMatch(/General text\s+A general embedding/);
    expect(frame).toMatch(/Churn model\s+Finished\s+-\s+\S+ \S+\s+data\.json/);
    await ui.type('r', ' 2', KEY.enter);
    await ui.gone('New name:');
    await ui.see('Churn model 2');
    await ui.type('d', 'y');
    await ui.see(new RegExp(`Your Models .*${MESSAGES.noModels}`));
    await ui.type('n');
    await ui.see('Create Request');
    ui.unmount();
  });
});
