import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, UPLOAD_CONTEXTS } from '@portal/core';
import { rows, seedProject, withTestApi } from '@portal/testkit/api';
import { setCredit } from '@portal/testkit/seed';
import { KEY, renderUi } from '../../test/ui';

// A model the server can read: one layer of 10 x 64 weights and 64 biases.
const MODEL =
  'import torch.nn as nn\n\n\nclass Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(10, 64)\n';

// The worker analyses the uploaded model file (its parameters are the inputs the price is reckoned from).
const server = withTestApi();
let dir: string;
beforeEach(async () => {
  await setCredit(server, server.user.client, 5_000_000, 500_000);
  dir = await mkdtemp(join(tmpdir(), 'portal-ui-'));
  vi.spyOn(process, 'cwd').mockReturnValue(dir);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

describe('CreateShrinkRunScreen', { timeout: 30_000 }, () => {
  it('needs an upload; uploads a new .py file, picks it, shows estimate - free credit = amount due, asks, and creates the quote', async () => {
    const { project } = await seedProject(server);
    await writeFile(join(dir, 'model.py'), MODEL);
    await writeFile(join(dir, 'notes.txt'), 'not a model\n');
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/create-shrink-run`);
    await ui.see('Free credits: 500,000 of 5,000,000 input parameters used');
    await ui.see('Model upload: No upload selected.');
    await ui.see('My Account › Analytical Engines › Churn › Create Shrink Request');
    await ui.type('Shrink one', KEY.tab, 'first', KEY.tab, KEY.enter);
    await ui.see(MESSAGES.selectUpload);
    // Upload a new file: a non-.py file is refused first.
    await ui.type(KEY.tab, KEY.tab, KEY.enter);
    await ui.see('Upload a model');
    await ui.type('notes.txt', KEY.enter);
    await ui.see(MESSAGES.invalidFileType(UPLOAD_CONTEXTS.shrink.extensions));
    expect(server.calls).not.toContain('rendCreate');
    await ui.type(...Array('notes.txt'.length).fill('\u007F'), 'model.py', KEY.enter);
    // Back on the main view with the new model chosen, its price and the free credits.
    await ui.see('Model upload: model.py (Ready)', 20_000);
    // 704 parameters: one started million, $0.22, which the 4.5 million of free credit left covers.
    await ui.see('Estimate $0.22 - free credit $0.22 = amount due $0.00');
    await ui.type(KEY.tab, KEY.tab);
    await ui.type(KEY.enter);
    // Asked first; n goes back to the form and creates nothing.
    await ui.see('y create · n back to the form');
    await ui.see(MESSAGES.shrinkConfirmFree.slice(0, 60));
    await ui.type('n');
    await ui.see('Create Quote');
    expect(server.calls).not.toContain('shrinkCreate');
    await ui.type(KEY.enter);
    await ui.see('y create · n back to the form');
    await ui.see(MESSAGES.shrinkConfirmFree.slice(0, 60));
    await ui.type('y');
    const frame = await ui.see('Invoice amount');
    // The server made the quote on the uploaded model, named and described as typed.
    const quotes = await rows(server).selectFrom('quotes').selectAll().where('bucket', '=', project.stamp).execute();
    expect(quotes).toHaveLength(1);
    expect(quotes[0]).toMatchObject({ name: 'Shrink one', desc: 'first', function: 'shrink', inputs: 10 * 64 + 64 });
    expect(frame).toContain(quotes[0].invoice_num);
    const upload = await rows(server).selectFrom('rends').select('name').where('stamp', '=', quotes[0].rend).executeTakeFirstOrThrow();
    expect(upload.name).toBe('model.py');
    ui.unmount();
  });

  it('the pick view reloads on r', async () => {
    const { project } = await seedProject(server);
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/create-shrink-run`);
    await ui.see('Pick an existing upload');
    await ui.type(KEY.tab, KEY.tab, KEY.tab, KEY.enter);
    await ui.see('Only Ready uploads can be chosen.');
    await ui.see('data.json ($0.22');
    const before = server.calls.filter((c) => c === 'rendList').length;
    await ui.type('r');
    await vi.waitFor(() => expect(server.calls.filter((c) => c === 'rendList').length).toBeGreaterThan(before));
    await ui.type(KEY.esc);
    await ui.see('Create Shrink Request');
    ui.unmount();
  });
});

describe('CreateShrinkRunScreen with no free credit left', { timeout: 30_000 }, () => {
  it('asks what will be billed before creating an Unpaid quote', async () => {
    await setCredit(server, server.user.client, 500_000, 500_000);
    const { project } = await seedProject(server);
    await writeFile(join(dir, 'model.py'), MODEL);
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/create-shrink-run`);
    await ui.see('Model upload: No upload selected.');
    await ui.type('Billed', KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.enter);
    await ui.see('Upload a model');
    await ui.type('model.py', KEY.enter);
    await ui.see('Estimate $0.22 - free credit $0.00 = amount due $0.22', 20_000);
    await ui.type(KEY.tab, KEY.tab, KEY.enter);
    await ui.see('y create · n back to the form');
    await ui.see(MESSAGES.shrinkConfirmBilled('$0.22').slice(0, 60));
    await ui.type('y');
    await ui.see('Invoice amount');
    const quote = await rows(server)
      .selectFrom('quotes')
      .select(['state', 'cent'])
      .where('bucket', '=', project.stamp)
      .executeTakeFirstOrThrow();
    expect(quote).toEqual({ state: 'Unpaid', cent: 22 });
    ui.unmount();
  });
});
