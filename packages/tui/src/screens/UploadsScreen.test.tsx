import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, UPLOAD_CONTEXTS } from '@portal/core';
import { seedProject, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';
import { parsePaths } from './UploadsScreen';

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

describe('UploadsScreen', { timeout: 30_000 }, () => {
  it('uploads local files by path (streamed, hashed, PUT) and shows the success notice', async () => {
    const { bucket } = seedProject(server.state);
    await writeFile(join(dir, 'a.json'), '[[1,2,3,4]]');
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/uploads`);
    await ui.see('data.json');
    // The breadcrumbs name the account and the project, as on the web.
    await ui.see('My Account › Analytical Engines › Churn › Uploads');
    await ui.type('n', 'a.json', KEY.enter);
    await ui.see(MESSAGES.uploadSucceeded('a.json'));
    await ui.see(/a\.json\s+Ready\s+a\.json \(11 Bytes\): Finished\s+0/);
    expect(Object.values(server.state.stored)).toEqual([{ size: 11, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    ui.unmount();
  });

  it('Esc while a file is sent cancels it: Upload cancelled, and the half-made upload is removed; the screen stays', async () => {
    const { bucket } = seedProject(server.state);
    server.state.storageDelayMs = 3000;
    await writeFile(join(dir, 'slow.json'), '[[1,2,3,4]]');
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/uploads`);
    await ui.see('data.json');
    await ui.type('n', 'slow.json', KEY.enter);
    await ui.see('Esc cancel');
    await ui.type(KEY.esc);
    await ui.see(MESSAGES.uploadCancelled);
    expect(ui.lastFrame()).toContain('Uploads');
    await ui.gone('Esc cancel');
    const made = server.state.rends.filter((r) => r.name === 'slow.json');
    expect(made).toHaveLength(1);
    expect(made[0].active).toBe(0);
    ui.unmount();
  });

  it('refuses a wrong extension or a missing file with a clear message', async () => {
    const { bucket } = seedProject(server.state);
    await writeFile(join(dir, 'x.exe'), 'x');
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/uploads`);
    await ui.see('data.json');
    await ui.type('n', 'x.exe', KEY.enter);
    await ui.see(MESSAGES.invalidFileType(UPLOAD_CONTEXTS.uploads.extensions));
    await ui.type(KEY.esc, 'n', 'missing.json', KEY.enter);
    await ui.see('Cannot read missing.json: no such file');
    expect(server.state.calls).not.toContain('rendCreate');
    ui.unmount();
  });

  it('renames, removes, and shows the empty text and item errors', async () => {
    const { bucket, rend } = seedProject(server.state);
    Object.assign(rend.upload.list[0].meta, { proc: 2, error: 'Row 2 is not an array of numbers' });
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/uploads`);
    await ui.see('Row 2 is not an array');
    await ui.type('r', '!', KEY.enter);
    await ui.gone('New name:');
    await ui.see('data.json!');
    await ui.type('d', 'y');
    await ui.see(MESSAGES.noUploads);
    ui.unmount();
  });

  it('refreshes by itself until uploads are Ready or Failed; a failed load shows SPEC text', async () => {
    const { bucket, rend } = seedProject(server.state);
    Object.assign(rend, { flight: 'Processing' });
    const ui = renderUi(server, `/client/cli000001/project/${bucket.stamp}/uploads`);
    await ui.see(/data\.json\s+Processing/);
    Object.assign(rend, { flight: 'Ready' });
    await ui.see(/data\.json\s+Ready/, 6000);
    ui.unmount();
    server.state.failing.rendList = 500;
    const failed = renderUi(server, `/client/cli000001/project/${bucket.stamp}/uploads`);
    await failed.see(MESSAGES.fetchUploads);
    failed.unmount();
  });

  it('reads quoted paths with spaces', () => {
    expect(parsePaths('a.json "my file.txt" \'b c.npy\'')).toEqual(['a.json', 'my file.txt', 'b c.npy']);
  });
});
