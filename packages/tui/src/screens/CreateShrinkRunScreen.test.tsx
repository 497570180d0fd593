import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedProject, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
let dir: string;
beforeEach(async () => {
  server = await startFakeApi();
  dir = await mkdtemp(join(tmpdir(), 'portal-ui-'));
  vi.spyOn(process, 'cwd').mockReturnValue(dir);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('CreateShrinkRunScreen', { timeout: 30_000 }, () => {
  it('needs an upload; uploads a new .py file, picks it, shows the estimate and creates the quote', async () => {
    const { bucket } = seedProject(server.state);
    await writeFile(join(dir, 'model.py'), 'print(1)\n');
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/create-shrink-run`);
    await ui.see('Free credits: 500,000 of 5,000,000 input parameters used');
    await ui.see('Model upload: No upload selected.');
    await ui.see('My Account › Analytical Engines › Churn › Create Shrink Request');
    await ui.type('Shrink one', KEY.tab, 'first', KEY.tab, KEY.enter);
    await ui.see(MESSAGES.selectUpload);
    // Upload a new file: a non-.py file is refused first.
    await ui.type(KEY.tab, KEY.tab, KEY.enter);
    await ui.see('Upload a model');
    await ui.type('model.py', KEY.enter);
    // Back on the main view with the new model chosen, its price and the free credits.
    await ui.see('Model upload: model.py (Ready)');
    await ui.see('Estimated price: $0.22');
    await ui.type(KEY.tab, KEY.tab);
    await ui.type(KEY.enter);
    const frame = await ui.see('Invoice amount');
    expect(frame).toContain('INV-0001');
    ui.unmount();
  });

  it('the pick view reloads on r', async () => {
    const { bucket } = seedProject(server.state);
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/create-shrink-run`);
    await ui.see('Pick an existing upload');
    await ui.type(KEY.tab, KEY.tab, KEY.tab, KEY.enter);
    await ui.see('Only Ready uploads can be chosen.');
    await ui.see('data.json ($0.22');
    const before = server.state.calls.filter((c) => c === 'rendList').length;
    await ui.type('r');
    await new Promise((r) => setTimeout(r, 200));
    expect(server.state.calls.filter((c) => c === 'rendList').length).toBeGreaterThan(before);
    await ui.type(KEY.esc);
    await ui.see('Create Shrink Request');
    ui.unmount();
  });
});
