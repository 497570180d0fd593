// SPEC section 8's messages where the web shows them: failed calls (the real server's answer replaced by a 500 for
// one call), not-found texts, the fit and shrink forms' rules, and cancelling an upload in progress.
import { test, expect, type Page, type Route } from '@playwright/test';
import { MESSAGES, UPLOAD_CONTEXTS } from '@portal/core';
import {
  mainAlert,
  chooseFile,
  auth,
  createProject,
  MODEL_PY,
  createUser,
  fitJson,
  fitThroughApi,
  loginToken,
  notice,
  uploadFile,
  type TestUser,
  rowAction,
} from './helpers';

/** A 500 as a broken server would answer it. */
const brokenAnswer = (route: Route) =>
  route.fulfill({
    status: 500,
    contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'internal', message: 'Something broke' } }),
  });

/** The next call matching `path` and `method` fails with a 500, as a broken server would answer; others go through. */
async function failOnce(page: Page, path: string, method: string) {
  let done = false;
  await page.route(`**${path}*`, async (route) => {
    if (done || route.request().method() !== method) return route.fallback();
    done = true;
    await brokenAnswer(route);
  });
}

/**
 * Every call matching `path` and `method` fails with a 500 until the page's Retry button is clicked (retryClicked).
 * For the lists that keep polling through a server's trouble (uploads, requests): a single failure would be mended by
 * the next poll, which on a busy machine can come before the test clicks Retry; a poll is told from Retry's call by
 * the page's own note of the click, set before the click's handler reads again.
 */
async function failUntilRetry(page: Page, path: string, method: string) {
  let passed = false;
  await page.route(`**${path}*`, async (route) => {
    if (passed || route.request().method() !== method) return route.fallback();
    const retried = await page.evaluate(() => (window as { portalRetried?: boolean }).portalRetried === true).catch(() => false);
    if (retried) {
      passed = true;
      return route.fallback();
    }
    await brokenAnswer(route);
  });
}

/** Clicks the main list's Retry, noting the click in the page first (failUntilRetry lets the calls through after it). */
async function retryClicked(page: Page) {
  await page.evaluate(() =>
    document.addEventListener(
      'click',
      (e) => {
        if ((e.target as Element).closest('button')?.textContent === 'Retry') (window as { portalRetried?: boolean }).portalRetried = true;
      },
      true,
    ),
  );
  await page.getByRole('main').getByRole('button', { name: 'Retry' }).click();
}

/** The notice is shown; then dismissed, so the next ones are not queued behind it. */
async function seen(page: Page, message: string) {
  const shown = page.locator('.notistack-MuiContent').filter({ hasText: message }).first();
  await expect(shown).toBeVisible();
  // By CSS, not role: while a dialog is open the rest of the page is hidden from the accessibility tree.
  await shown.locator('button.portal-notice-close').click();
  await expect(shown).toHaveCount(0);
}

async function renameFails(page: Page, name: string, path: string, message: string) {
  await failOnce(page, path, 'POST');
  await rowAction(page, 'Rename', name);
  await page.getByRole('dialog').getByLabel('Name').fill(`${name} 2`);
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  // Said in the dialog, beside the field, and only there.
  await expect(page.getByRole('dialog').getByText(message)).toBeVisible();
  await expect(page.locator('.notistack-MuiContent').filter({ hasText: message })).toHaveCount(0);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
}

async function removeFails(page: Page, name: string, path: string, message: string) {
  await failOnce(page, path, 'POST');
  await rowAction(page, 'Remove', `${name}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await seen(page, message);
  await expect(page.getByRole('cell', { name, exact: true }).first()).toBeVisible();
}

let user: TestUser;
let project: string;
let upload: string;
let run: string;

test.beforeAll(async ({ request }) => {
  user = await createUser(request, 'messages');
  project = await createProject(request, user, 'Messages project');
  upload = await uploadFile(request, user, project, 'rows.json', fitJson(30));
  await uploadFile(request, user, project, 'net.py', MODEL_PY);
  run = await fitThroughApi(request, user, project, upload, 'Messages request');
});

test('list failures: loading, creating, renaming and removing show SPEC messages', async ({ page, request }) => {
  await request.put('/api/client/apikey/item', { headers: auth(user), data: { client: user.clientId, name: 'Failing key' } });
  await loginToken(page, user);
  const c = user.clientId;
  const p = `/client/${c}/project/${project}`;

  await failOnce(page, '/api/user/permission', 'GET');
  await page.goto('/account');
  await seen(page, MESSAGES.fetchPermissions);
  await expect(mainAlert(page, MESSAGES.fetchPermissions)).toBeVisible();
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('button', { name: /^Open Company / })).toBeVisible();

  await page.goto(`/client/${c}/projects`);
  await failOnce(page, '/api/bucket/item', 'PUT');
  await page.getByRole('button', { name: 'Create Project' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Never made');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('dialog').getByText(MESSAGES.createProject)).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await renameFails(page, 'Messages project', '/api/bucket/name', MESSAGES.renameProject);
  await removeFails(page, 'Messages project', '/api/bucket/remove', MESSAGES.removeProject);

  await page.goto(`/client/${c}/apikeys`);
  await renameFails(page, 'Failing key', '/api/client/apikey/name', MESSAGES.renameApiKey);
  await removeFails(page, 'Failing key', '/api/client/apikey/remove', MESSAGES.removeApiKey);
  await rowAction(page, 'Remove', 'Failing key');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await failOnce(page, '/api/client/apikey/item', 'PUT');
  await page.getByRole('button', { name: 'Create API Key' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Second key');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('dialog').getByText(MESSAGES.createApiKey)).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  await failUntilRetry(page, '/api/rend/item', 'GET');
  await page.goto(`${p}/uploads`);
  await seen(page, MESSAGES.fetchUploads);
  await expect(mainAlert(page, MESSAGES.fetchUploads)).toBeVisible();
  await retryClicked(page);
  await renameFails(page, 'rows.json', '/api/rend/name', MESSAGES.renameUpload);
  await removeFails(page, 'rows.json', '/api/rend/remove', MESSAGES.removeUpload);
  await failOnce(page, '/api/upload/item', 'PUT');
  await chooseFile(page, 'more.json', 'application/json', fitJson(5), 'Choose files to upload');
  await seen(page, MESSAGES.uploadFiles);
  // The half-made group does not stay in the list.
  await expect(page.getByRole('cell', { name: 'more.json', exact: true })).toHaveCount(0);

  await failOnce(page, '/api/client/model/item', 'GET');
  await page.goto(`${p}/models`);
  await seen(page, MESSAGES.loadTransformations);
  await page.getByRole('button', { name: 'Retry' }).first().click();
  const own = page.getByRole('table', { name: 'Your models' });
  // The model's name, from its row's selection box ("Select NAME"): the first cell is the box.
  const select = await own.getByRole('row').nth(1).getByRole('checkbox').getAttribute('aria-label');
  const model = select!.replace(/^Select /, '');
  await renameFails(page, model, '/api/client/model/name', MESSAGES.renameModel);
  await removeFails(page, model, '/api/client/model/remove', MESSAGES.removeModel);

  await failUntilRetry(page, '/api/run/item', 'GET');
  await page.goto(`${p}/runs`);
  await seen(page, MESSAGES.loadRequests);
  await expect(mainAlert(page, MESSAGES.loadRequests)).toBeVisible();
  await retryClicked(page);
  // The fit and its generate request share the name: the first one stands for both.
  await renameFails(page, 'Messages request', '/api/run/name', MESSAGES.renameRun);
  await failOnce(page, '/api/run/remove', 'POST');
  await rowAction(page, 'Remove', 'Messages request');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await seen(page, MESSAGES.removeRun);
});

test('details: failed loads, unknown ids, and a request whose upload data is missing', async ({ page }) => {
  await loginToken(page, user);
  const p = `/client/${user.clientId}/project/${project}`;

  await page.goto(`${p}/run/n_unknown/details`);
  await expect(page.getByRole('heading', { level: 1, name: MESSAGES.requestNotFound })).toBeVisible();
  await page.goto(`${p}/quote/q_unknown/details`);
  await expect(page.getByRole('heading', { level: 1, name: MESSAGES.requestNotFound })).toBeVisible();

  await failOnce(page, '/api/run/status', 'GET');
  await page.goto(`${p}/run/${run}/details`);
  await seen(page, MESSAGES.loadRun);
  await expect(page.getByRole('main').getByText(MESSAGES.loadRun)).toBeVisible();

  await failOnce(page, '/api/quote/status', 'GET');
  await page.goto(`${p}/quote/q_unknown2/details`);
  await seen(page, MESSAGES.loadQuote);

  // The server names the upload of every request; one answered without it shows SPEC's text.
  await page.route('**/api/run/status*', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    body.run.record.rend = null;
    await route.fulfill({ response: res, json: body });
  });
  await page.goto(`${p}/run/${run}/details`);
  await expect(page.getByText(MESSAGES.uploadDataNotFound)).toBeVisible();
});

test('fit form: an upload without .json data, a failed create; shrink form: its rules and a single .py file', async ({ page, request }) => {
  await loginToken(page, user);
  const p = `/client/${user.clientId}/project/${project}`;

  await page.goto(`${p}/create-fit-run`);
  await page.getByLabel(/^Request name/).fill('Wrong data');
  await page.getByLabel(/^Input column size/).fill('3');
  await page.getByLabel(/^Output column size/).fill('2');
  await page.getByRole('combobox', { name: 'Upload' }).click();
  await page.getByRole('option', { name: 'net.py' }).click();
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(page.getByText(MESSAGES.generateFileNotFound)).toBeVisible();
  await page.getByRole('combobox', { name: 'Upload' }).click();
  await page.getByRole('option', { name: 'rows.json' }).click();
  await failOnce(page, '/api/pile/item', 'PUT');
  await page.getByRole('button', { name: 'Create Request' }).click();
  await seen(page, MESSAGES.createRequest);
  await expect(page).toHaveURL(/\/create-fit-run$/);
  // The upload went away after it was chosen: the server's 'Selected upload not found' is shown with the failure.
  await request.post('/api/rend/remove', { headers: auth(user), data: { rend: upload, active: 0 } });
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(mainAlert(page, MESSAGES.uploadNotFound)).toBeVisible();

  await page.goto(`${p}/create-shrink-run`);
  await page.getByRole('button', { name: 'Create Quote' }).click();
  await expect(page.getByText(MESSAGES.titleCreate)).toBeVisible();
  await expect(page.getByText(MESSAGES.selectUpload)).toBeVisible();
  await page.getByLabel('Description').fill('d'.repeat(320));
  await expect(page.getByLabel('Description')).toHaveValue('d'.repeat(300));
  await expect(page.getByText('300/300')).toBeVisible();
  await page.getByRole('button', { name: 'Upload a new model file' }).click();
  await chooseFile(page, 'rows.json', 'application/json', '[]');
  await expect(mainAlert(page, MESSAGES.invalidFileType(UPLOAD_CONTEXTS.shrink.extensions))).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Pick an existing upload' }).click();
  // Only Ready uploads are offered, each with its price estimate.
  await expect(page.getByRole('button', { name: 'Select net.py' })).toBeVisible();
  // A model uploaded elsewhere meanwhile appears at once on Reload, well before the 20-second poll.
  await uploadFile(request, user, project, 'later.py', MODEL_PY);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('button', { name: 'Select later.py' })).toBeVisible({ timeout: 5000 });
  await page.getByRole('button', { name: 'Select net.py' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'net.py (Ready)' })).toBeVisible();
  await expect(page.getByText(MESSAGES.selectUpload)).toHaveCount(0);
});

test('an upload in progress can be cancelled: Upload cancelled. and no half-made upload in the list', async ({ page, request }) => {
  const fresh = await createProject(request, user, 'Cancel project');
  await loginToken(page, user);
  // The storage holds the bytes until the test is done, so the upload is still sending them when Cancel is pressed.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/storage/**', async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  await page.goto(`/client/${user.clientId}/project/${fresh}/uploads`);
  await expect(page.getByText(MESSAGES.noUploads)).toBeVisible();
  await page.getByLabel('Choose files to upload').setInputFiles([
    { name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(fitJson(10)) },
    { name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(fitJson(10)) },
  ]);
  const batch = page.getByRole('region', { name: 'Uploading 2 files' });
  await expect(batch.getByRole('progressbar', { name: 'Uploading a.json' })).toBeVisible();
  // Closing or reloading the tab now would lose the upload: the browser asks first.
  const leaveWarns = () =>
    page.evaluate(() => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    });
  expect(await leaveWarns()).toBe(true);
  await batch.getByRole('button', { name: 'Cancel upload of 2 files' }).click();
  await seen(page, MESSAGES.uploadCancelled);
  expect(await leaveWarns()).toBe(false);
  await expect(batch).toHaveCount(0);
  await expect(page.getByText(MESSAGES.noUploads)).toBeVisible();
  // The cancel removes the half-made upload on the server after the list has dropped it: wait for that call to land.
  const list = async () => (await (await request.get(`/api/rend/item?active=1&bucket=${fresh}`, { headers: auth(user) })).json()).rend.list;
  await expect.poll(list, { timeout: 10_000 }).toEqual([]);
  await expect(notice(page, MESSAGES.uploadSucceeded('a.json'))).toHaveCount(0);
  release();
});
