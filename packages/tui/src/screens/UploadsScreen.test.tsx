import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, UPLOAD_CONTEXTS } from '@portal/core';
import { rows, seedProject, setRow, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';
import { parsePaths } from './UploadsScreen';

// With the worker: an upload pushed from the screen is analysed by the server before it is Ready.
const server = withTestApi();
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portal-ui-'));
  vi.spyOn(process, 'cwd').mockReturnValue(dir);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const uploadsOf = (project: string, name: string) =>
  rows(server).selectFrom('rends').select(['stamp', 'active', 'flight']).where('bucket', '=', project).where('name', '=', name).execute();

describe('UploadsScreen', { timeout: 30_000 }, () => {
  it('uploads local files by path (streamed, hashed, PUT) and shows the success notice', async () => {
    const { project } = await seedProject(server);
    const bytes = '[[1,2,3,4]]';
    await writeFile(join(dir, 'a.json'), bytes);
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/uploads`);
    await ui.see('data.json');
    // The breadcrumbs name the account and the project, as on the web.
    await ui.see('My Account › Analytical Engines › Churn › Uploads');
    await ui.type('n', 'a.json', KEY.enter);
    await ui.see(MESSAGES.uploadSucceeded('a.json'));
    await ui.see(/a\.json\s+Ready\s+a\.json \(11 Bytes\): Finished\s+0/, 20_000);
    expect(server.calls.filter((c) => c === 'storagePut')).toHaveLength(1);
    // The server stored the file's bytes under the checksum the client computed.
    const [made] = await uploadsOf(project.stamp, 'a.json');
    const items = await rows(server).selectFrom('uploads').select(['size', 'checksum', 'stored']).where('rend', '=', made.stamp).execute();
    expect(items).toEqual([{ size: 11, checksum: createHash('sha256').update(bytes).digest('hex'), stored: 1 }]);
    ui.unmount();
  });

  it('Esc while a file is sent cancels it: Upload cancelled, and the half-made upload is removed; the screen stays', async () => {
    const { project } = await seedProject(server);
    server.storageDelayMs = 3000;
    await writeFile(join(dir, 'slow.json'), '[[1,2,3,4]]');
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/uploads`);
    await ui.see('data.json');
    await ui.type('n', 'slow.json', KEY.enter);
    await ui.see('Esc cancel');
    await ui.type(KEY.esc);
    await ui.see(MESSAGES.uploadCancelled);
    expect(ui.lastFrame()).toContain('Uploads');
    await ui.gone('Esc cancel');
    // The half-made upload is removed after the notice: wait for the server's row.
    await vi.waitFor(async () => {
      const made = await uploadsOf(project.stamp, 'slow.json');
      expect(made).toHaveLength(1);
      expect(made[0].active).toBe(0);
    });
    ui.unmount();
  });

  it('refuses a wrong extension or a missing file with a clear message', async () => {
    const { project } = await seedProject(server);
    await writeFile(join(dir, 'x.exe'), 'x');
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/uploads`);
    await ui.see('data.json');
    await ui.type('n', 'x.exe', KEY.enter);
    await ui.see(MESSAGES.invalidFileType(UPLOAD_CONTEXTS.uploads.extensions));
    await ui.type(KEY.esc, 'n', 'missing.json', KEY.enter);
    await ui.see('Cannot read missing.json: no such file');
    expect(server.calls).not.toContain('rendCreate');
    ui.unmount();
  });

  it('renames, removes, and shows the empty text and item errors', async () => {
    const { project, upload } = await seedProject(server);
    await setRow(server, 'uploads', upload.items[0], {
      proc: 2,
      cols: null,
      rows: null,
      inputs: null,
      meta_error: 'Row 2 is not an array of numbers',
    });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/uploads`);
    await ui.see('Row 2 is not an array');
    await ui.type('r', '!', KEY.enter);
    await ui.gone('New name:');
    await ui.see('data.json!');
    await ui.type('d', 'y');
    await ui.see(MESSAGES.noUploads);
    expect(await uploadsOf(project.stamp, 'data.json!')).toEqual([{ stamp: upload.stamp, active: 0, flight: 'Ready' }]);
    ui.unmount();
  });

  it('refreshes by itself until uploads are Ready or Failed; a failed load shows SPEC text', async () => {
    const { project, upload } = await seedProject(server);
    await setRow(server, 'rends', upload.stamp, { flight: 'Processing' });
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/uploads`);
    await ui.see(/data\.json\s+Processing/);
    await setRow(server, 'rends', upload.stamp, { flight: 'Ready' });
    await ui.see(/data\.json\s+Ready/, 6000);
    ui.unmount();
    server.failing.rendList = 500;
    const failed = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/uploads`);
    await failed.see(MESSAGES.fetchUploads);
    failed.unmount();
  });

  it('reads quoted paths with spaces', () => {
    expect(parsePaths('a.json "my file.txt" \'b c.npy\'')).toEqual(['a.json', 'my file.txt', 'b c.npy']);
  });
});
