// The portal for daily use, at 1280 and 390 px: a fast first load, lists that scale (55 projects), notices with Undo,
// sessions that end quietly and return to their page, guidance (empty states, the shrink picker, not found, focus),
// the masked key token and the themed payment page; axe stays at 0 serious on each screen.
import { test, expect, type Page } from '@playwright/test';
import { MESSAGES, PALETTE, SHRINK_REASONS } from '@portal/core';
import {
  auth,
  checkA11y,
  createProject,
  createUser,
  fitJson,
  loginToken,
  MODEL_PY,
  notice,
  PASSWORD,
  shot,
  TOKEN_KEY,
  uploadFile,
  rowAction,
} from './helpers';

const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

test('first load: brotli and gzip copies, immutable hashed assets, index.html revalidated, a favicon', async ({ request, page }) => {
  const html = await request.get('/', { headers: { 'accept-encoding': 'br' } });
  expect(html.headers()['cache-control']).toBe('no-cache');
  await page.goto('/');
  const script = await page.locator('script[type="module"]').first().getAttribute('src');
  expect(script).toMatch(/^\/assets\//);
  for (const enc of ['br', 'gzip']) {
    const res = await request.get(script!, { headers: { 'accept-encoding': enc } });
    expect(res.headers()['content-encoding']).toBe(enc);
    expect(res.headers()['vary']).toMatch(/accept-encoding/i);
    expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  }
  const icon = await request.get('/favicon.ico');
  expect(icon.status()).toBe(200);
});

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('55 projects: pages of 25, ids to copy, long names cut, actions in view', async ({ page, request, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const user = await createUser(request, `list${width}`);
      const long = `${'Very long project name '.repeat(3)}`.slice(0, 60);
      const stamps: string[] = [];
      for (let i = 0; i < 54; i++) stamps.push(await createProject(request, user, `Project ${String(i).padStart(2, '0')}`));
      const longStamp = await createProject(request, user, long);
      await loginToken(page, user);
      await page.goto(`/client/${user.clientId}/projects`);
      await expect(page.getByText('1-25 of 55')).toBeVisible();
      await page.getByRole('button', { name: /next page/i }).click();
      await expect(page.getByText('26-50 of 55')).toBeVisible();
      await checkA11y(page, `projects, 55 (${width})`);
      await shot(page, `daily-projects-55-${width}`);
      // The long name, cut to one line, whole in its tooltip.
      await page.getByLabel('Filter projects').fill('Very long');
      const name = page.getByText(long, { exact: true }).first();
      await expect(name).toBeVisible();
      const box = await name.boundingBox();
      expect(box!.height).toBeLessThan(30);
      expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await name.hover();
      await expect(page.getByRole('tooltip', { name: long })).toBeVisible();
      // Every row's actions are inside the window, however long the name.
      const remove = page.getByRole('button', { name: `More actions for ${long}` });
      await expect(remove).toBeInViewport();
      const r = await remove.boundingBox();
      expect(r!.x + r!.width).toBeLessThanOrEqual(width);
      // The id is shown and copied (the pointer leaves the name, whose tooltip closes).
      await page.mouse.move(0, 0);
      await page.getByRole('button', { name: `Copy ID of ${long}` }).click();
      await expect(page.getByRole('button', { name: `Copied ID of ${long}` })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(longStamp);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });

    test('notices: create, rename and remove are confirmed, a removal can be undone, notices stay below the top bar', async ({
      page,
      request,
    }) => {
      const user = await createUser(request, `notice${width}`);
      await loginToken(page, user);
      await page.goto(`/client/${user.clientId}/projects`);
      // An empty list says what projects are for and offers the first one.
      await expect(page.getByText(MESSAGES.noProjects)).toBeVisible();
      await checkA11y(page, `projects, empty (${width})`);
      await page.getByRole('button', { name: 'Create your first project' }).click();
      await page.getByRole('dialog').getByLabel('Name').fill('Greenhouse');
      await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
      await expect(notice(page, 'Project "Greenhouse" created.')).toBeVisible();
      // A new project opens on its uploads, the first step.
      await expect(page).toHaveURL(/\/uploads$/);
      await expect(page.getByText('Uploads hold the files your requests read')).toBeVisible();
      const bar = await page.locator('header').boundingBox();
      const note = await notice(page, 'Project "Greenhouse" created.').boundingBox();
      expect(note!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height);
      await page.goto(`/client/${user.clientId}/projects`);
      await rowAction(page, 'Rename', 'Greenhouse');
      await page.getByRole('dialog').getByLabel('Name').fill('Glasshouse');
      await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
      await expect(notice(page, 'Project renamed to "Glasshouse".')).toBeVisible();
      await rowAction(page, 'Remove', 'Glasshouse');
      await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
      await expect(notice(page, 'Project removed.')).toBeVisible();
      await expect(page.getByText(MESSAGES.noProjects)).toBeVisible();
      await page.getByRole('button', { name: 'Undo' }).click();
      await expect(notice(page, 'Project restored.')).toBeVisible();
      await expect(page.getByText('Glasshouse', { exact: true }).first()).toBeVisible();
      // A failed rename is said in the dialog only.
      await page.route('**/api/bucket/name', (route) => route.fulfill({ status: 500, body: '{}' }), { times: 1 });
      await rowAction(page, 'Rename', 'Glasshouse');
      await page.getByRole('dialog').getByLabel('Name').fill('Other');
      await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
      await expect(page.getByRole('dialog').getByText(MESSAGES.renameProject)).toBeVisible();
      await expect(notice(page, MESSAGES.renameProject)).toHaveCount(0);
    });

    test('uploads and requests: status chips, the "Status" header, fit and generate told apart, the shrink picker', async ({
      page,
      request,
    }) => {
      const user = await createUser(request, `chips${width}`);
      const project = await createProject(request, user, 'Chips');
      await uploadFile(request, user, project, 'rows.json', fitJson(30));
      await uploadFile(request, user, project, 'net.py', MODEL_PY);
      await loginToken(page, user);
      await page.goto(`/client/${user.clientId}/project/${project}/uploads`);
      const ready = page.locator('[data-tone="success"]', { hasText: 'Ready' }).first();
      await expect(ready).toBeVisible({ timeout: 60_000 });
      if (width > 600) await expect(page.getByRole('columnheader', { name: 'Status' })).toBeVisible();
      await expect(page.getByRole('columnheader', { name: 'Flight' })).toHaveCount(0);
      await checkA11y(page, `uploads (${width})`);
      // The picker offers only the upload with one .py model; the data upload says why not.
      await page.goto(`/client/${user.clientId}/project/${project}/create-shrink-run?view=pick`);
      await expect(page.getByText(SHRINK_REASONS.noModel)).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole('button', { name: 'Select rows.json' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Select net.py' })).toBeEnabled();
      await checkA11y(page, `shrink picker (${width})`);
      await page.getByRole('button', { name: 'Select net.py' }).click();
      await expect(page.getByText(/Estimate \$\d+\.\d\d - free credit \$\d+\.\d\d = amount due \$\d+\.\d\d/)).toBeVisible();
    });

    test('sessions: one notice for an invalid token, none after logout (Back), and the page again after signing in', async ({
      page,
      request,
    }) => {
      const user = await createUser(request, `session${width}`);
      const project = await createProject(request, user, 'Return here');
      await loginToken(page, user);
      await page.evaluate(([k]) => localStorage.setItem(k, 'not-a-token'), [TOKEN_KEY]);
      await page.goto(`/client/${user.clientId}/project/${project}/uploads`);
      await expect(page).toHaveURL(/\/$/);
      await expect(notice(page, MESSAGES.tokenExpired)).toBeVisible();
      await expect(notice(page, MESSAGES.tokenMissing)).toHaveCount(0);
      // Signing in again opens the page the session ended on.
      await loginUiTo(page, user.email, new RegExp(`/project/${project}/uploads$`));
      await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeFocused();
      // A deliberate logout, then Back: the root, quietly.
      if (width < 900) await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByRole('button', { name: 'Logout' }).click();
      await expect(page).toHaveURL(/\/$/);
      await page.goBack();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.locator('#notistack-snackbar')).toHaveCount(0);
    });

    test('guidance: not found offers nothing to do, a skip link, the key token masked until revealed', async ({ page, request }) => {
      const user = await createUser(request, `guide${width}`);
      const other = await createUser(request, `foreign${width}`);
      await loginToken(page, user);
      await page.goto(`/client/${other.clientId}/projects`);
      // A page that says so and the way back, not an error with Retry.
      await expect(page.getByRole('heading', { name: 'Client not found', level: 1 })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to My Account' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Create Project' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Create your first project' })).toHaveCount(0);
      // Skip link: the first Tab stop, and it leads to the page.
      await page.goto(`/client/${user.clientId}/apikeys`);
      await expect(page.getByText('An API key lets the Python client')).toBeVisible();
      // The first focusable element of the page, shown when focused.
      const skip = page.getByRole('link', { name: 'Skip to content' });
      expect(await page.evaluate(() => document.querySelector('a[href], button, input')?.textContent)).toBe('Skip to content');
      await skip.focus();
      await expect(skip).toBeInViewport();
      await page.keyboard.press('Enter');
      await expect(page.locator('main')).toBeFocused();
      const res = await request.put('/api/client/apikey/item', { headers: auth(user), data: { client: user.clientId, name: 'Laptop' } });
      const key = (await res.json()).apikey;
      await page.goto(`/client/${user.clientId}/apikey/${key.clue}/info`);
      await expect(page.getByText(key.token)).toHaveCount(0);
      await page.getByRole('button', { name: 'Reveal token' }).click();
      await expect(page.getByText(key.token, { exact: true })).toBeVisible();
      await checkA11y(page, `key details (${width})`);
    });
  });
}

test('the payment page wears the portal theme', async ({ page, request }) => {
  const user = await createUser(request, 'pay');
  const billing = await (await request.get(`/api/client/billing/status?client=${user.clientId}`, { headers: auth(user) })).json();
  await page.goto(billing.billing.portalUrl);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(rgb(PALETTE.page));
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).backgroundColor)).toBe(rgb(PALETTE.paper));
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('h1')!).color)).toBe(rgb(PALETTE.accent));
  await checkA11y(page, 'payment page');
});

/** Signs in through the form and waits for the page it should land on. */
async function loginUiTo(page: Page, email: string, url: RegExp) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(url);
}
