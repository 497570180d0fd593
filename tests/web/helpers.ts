// Shared steps of the browser tests: users made through the real API, sign-in via the stored token, the admin CLI, axe.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outboxMails } from '../outbox';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATA_DIR = process.env.PORTAL_E2E_DATA_DIR!;
/** Set when the run has its own PostgreSQL database (see playwright.config.ts); the admin CLI needs it. */
export const DATABASE_URL = process.env.PORTAL_E2E_DATABASE_URL || '';
export const PASSWORD = 'Str0ng!Pass';
export const TOKEN_KEY = 'portal.token';

let counter = 0;
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

export interface TestUser {
  email: string;
  username: string;
  company: string;
  token: string;
  clientId: string;
}

/** A new user and client through the real sign-up call. */
export async function createUser(request: APIRequestContext, prefix = 'user'): Promise<TestUser> {
  const username = unique(prefix);
  const email = `${username}@example.com`;
  const company = `Company ${username}`.slice(0, 50);
  const res = await request.post('/api/user/signup', { data: { email, username, password: PASSWORD, name: company } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const body = await res.json();
  return { email, username, company, token: body.token, clientId: body.login.client.list[0].stamp };
}

/** Signs in through the login form (the real flow) and waits for My Account. */
export async function loginUi(page: Page, user: { email: string }): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/account$/);
}

/** Signs in by storing the token as the portal does, for tests about something else. */
export async function loginToken(page: Page, user: { token: string }): Promise<void> {
  await page.goto('/contact.html');
  await page.evaluate(([k, t]) => localStorage.setItem(k, t), [TOKEN_KEY, user.token]);
}

/** The server's operator CLI on the same DATA_DIR, e.g. admin('set-plan', id, 'Enterprise'). */
export function admin(...args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, 'packages', 'server', 'dist', 'main.js'), 'admin', ...args], {
    env: { ...process.env, DATA_DIR, ...(DATABASE_URL ? { DATABASE_URL } : {}) },
    encoding: 'utf8',
  });
}

/** The three looks every screen is tried in: a 1280x800 laptop, a 390 px phone, and the laptop in dark mode. */
export const LOOKS = [
  { width: 1280, height: 800, scheme: 'light' },
  { width: 390, height: 844, scheme: 'light' },
  { width: 1280, height: 800, scheme: 'dark' },
] as const;
export type Look = (typeof LOOKS)[number];

/** Declares the tests `body` makes once per look, each group with its viewport and colour scheme. */
export function inEveryLook(body: (look: Look) => void): void {
  for (const look of LOOKS) {
    test.describe(`${look.width} px, ${look.scheme}`, () => {
      test.use({ viewport: { width: look.width, height: look.height }, colorScheme: look.scheme });
      body(look);
    });
  }
}

/** Fires the window's focus event until `ready` holds: the list reads again at most every few seconds. */
export async function focusUntil(page: Page, ready: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.dispatchEvent(new Event('focus')));
        return ready();
      },
      { timeout: 20_000, intervals: [500] },
    )
    .toBe(true);
}

/** A row's Rename or Remove, from its compact actions menu. `first`: the first row of that name (two lists on a page). */
export async function rowAction(page: Page, action: 'Rename' | 'Remove', name: string): Promise<void> {
  const item = page.getByRole('menuitem', { name: action });
  // Until the menu has closed on the item's click: a CI run showed the menu still open after the click, no dialog.
  await expect(async () => {
    if (!(await item.isVisible())) {
      await page
        .getByRole('button', { name: `More actions for ${name}` })
        .first()
        .click({ timeout: 5_000 });
    }
    await item.click({ timeout: 2_000 });
    await expect(item).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** Axe on the current page: no serious or critical violations. */
export async function checkA11y(page: Page, what: string): Promise<void> {
  // Axe measures colours of the frame it sees: a hover tooltip or a menu still fading measures half-transparent text.
  // The pointer leaves the page and every finite transition settles first (spinners run forever and are left alone).
  await page.mouse.move(0, 0);
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('\n  ')}`,
    )
    .join('\n');
  expect(bad, `${what}\n${summary}`).toEqual([]);
}

const SHOTS = join(ROOT, 'test-results', 'web', 'screenshots');

/** Keeps a screenshot of a route as a test artifact. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Closes every notice on screen with its dismiss button. */
export async function dismissNotices(page: Page): Promise<void> {
  await page.locator('button.portal-notice-close').evaluateAll((buttons) => buttons.forEach((b) => (b as HTMLButtonElement).click()));
  await expect(page.locator('.notistack-MuiContent')).toHaveCount(0);
}

/** A notification of the stack (notistack) with this exact text. */
/** Hands the page's file field a file of these bytes, as the file picker does (the uploads page takes several). */
export const chooseFile = (page: Page, name: string, mimeType: string, bytes: string | Buffer, label = 'Choose a file to upload') =>
  page.getByLabel(label).setInputFiles({ name, mimeType, buffer: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes) });

/** An alert in the page's main part (a form's or a list's, not a notice) that says this. */
export const mainAlert = (page: Page, text: string | RegExp) => page.getByRole('main').getByRole('alert').filter({ hasText: text });

/** How far the page scrolls sideways: 0 or less when it fits the window. */
export const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** A narrow window shows a list as cards: the first list that has items. */
export const firstCardList = (page: Page) =>
  page
    .getByRole('list')
    .filter({ has: page.getByRole('listitem') })
    .first();

export function notice(page: Page, text: string | RegExp) {
  return page.locator('#notistack-snackbar').filter({ hasText: text }).first();
}

/** Numeric rows for a fit: `inputs` numbers then one target, as DESIGN.md lays out fit data. */
export function fitJson(rows = 60, inputs = 3): string {
  const data: number[][] = [];
  for (let i = 0; i < rows; i++) {
    const xs = Array.from({ length: inputs }, (_, j) => Math.round(Math.sin(i * (j + 1)) * 1000) / 1000);
    data.push([...xs, Math.round((xs[0] * 2 + xs[1] - xs[2]) * 1000) / 1000]);
  }
  return JSON.stringify(data);
}

/** Bearer headers for the real API as a signed-in user. */
export function auth(user: { token: string }) {
  return { authorization: `Bearer ${user.token}` };
}

/** A project of the user made through the API (for tests about something other than creating it). */
export async function createProject(request: APIRequestContext, user: TestUser, name: string): Promise<string> {
  const res = await request.put('/api/bucket/item', { headers: auth(user), data: { client: user.clientId, name } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()).bucket.stamp;
}

/** A client API key of the user made through the API: the key as the API answers it (its `clue`, its `token`). */
export async function createApiKey(request: APIRequestContext, user: TestUser, name: string) {
  const res = await request.put('/api/client/apikey/item', { headers: auth(user), data: { client: user.clientId, name } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()).apikey;
}

/** Uploads one file through the API's upload flow (group, register, PUT, finish) and waits until it settles. */
export async function uploadFile(
  request: APIRequestContext,
  user: TestUser,
  project: string,
  name: string,
  body: string | Buffer,
): Promise<string> {
  const { createHash } = await import('node:crypto');
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const h = auth(user);
  const upload = (await (await request.put('/api/rend/item', { headers: h, data: { bucket: project, name } })).json()).rend.stamp;
  const reg = await request.put('/api/upload/item', {
    headers: h,
    data: { rend: upload, name, file: { checksum: createHash('sha256').update(bytes).digest('hex'), name, size: bytes.length } },
  });
  expect(reg.status(), await reg.text()).toBeLessThan(300);
  const item = (await reg.json()).upload;
  const put = await request.put(item.url, { data: bytes, headers: { 'content-type': 'application/octet-stream' } });
  expect(put.status(), await put.text()).toBeLessThan(300);
  await request.post('/api/upload/finish', { headers: h, data: { upload: item.stamp } });
  await request.post('/api/rend/finish', { headers: h, data: { rend: upload } });
  await expect
    .poll(
      async () => {
        const list = (await (await request.get(`/api/rend/item?active=1&bucket=${project}`, { headers: h })).json()).rend.list;
        return list.find((r: { stamp: string }) => r.stamp === upload)?.flight;
      },
      { timeout: 60_000 },
    )
    .toMatch(/Ready|Failed/);
  return upload;
}

/** A fit request through the API; resolves when its generate run is final. */
export async function fitThroughApi(
  request: APIRequestContext,
  user: TestUser,
  project: string,
  upload: string,
  name: string,
  task: 'regression' | 'classification' = 'regression',
): Promise<string> {
  const h = auth(user);
  const parameters = (
    await (
      await request.put('/api/pile/item', {
        headers: h,
        data: {
          bucket: project,
          variety: 'FitModel',
          param: { explainability: false, input_column_size: 3, output_column_size: 2, task_target_size: 1, task },
        },
      })
    ).json()
  ).pile.stamp;
  const fit = (
    await (
      await request.put('/api/run/item/generate', {
        headers: h,
        data: { bucket: project, function: 'fit', rend: upload, pile: parameters, name },
      })
    ).json()
  ).run.stamp;
  const gen = (
    await (
      await request.put('/api/run/item/generate', { headers: h, data: { bucket: project, function: 'generate', rend: upload, fit, name } })
    ).json()
  ).run.stamp;
  await expect
    .poll(async () => (await (await request.get(`/api/run/status?run=${gen}`, { headers: h })).json()).run.record.state, {
      timeout: 90_000,
    })
    .toMatch(/Finished|Failed/);
  return gen;
}

/** A small PyTorch model definition, as a shrink request takes it. */
export const MODEL_PY = [
  'import torch.nn as nn',
  '',
  'model = nn.Sequential(',
  '    nn.Linear(16, 8),',
  '    nn.ReLU(),',
  '    nn.Linear(8, 2),',
  ')',
  '',
].join('\n');

/** A shrink quote through the API for a Ready .py upload; resolves to the quote's stamp. */
export async function shrinkThroughApi(
  request: APIRequestContext,
  user: TestUser,
  project: string,
  upload: string,
  name: string,
): Promise<string> {
  const h = auth(user);
  const parameters = (
    await (await request.put('/api/pile/item', { headers: h, data: { bucket: project, variety: 'ShrinkService', param: {} } })).json()
  ).pile.stamp;
  const res = await request.put('/api/run/item/shrink', {
    headers: h,
    data: { bucket: project, function: 'shrink', rend: upload, pile: parameters, name, desc: 'Smaller, same answers' },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()).quote.stamp;
}

/** The newest link in a mail the embedded mailer wrote to DATA_DIR/outbox for this address, matching `re`, once it is there. */
export async function mailedLink(email: string, re: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      link = outboxMails(DATA_DIR)
        // A long address is folded onto the header's next line (RFC 5322): unfolded before matching.
        .filter((m) => m.replace(/\r?\n[ \t]+/g, ' ').includes(`To: ${email}\n`))
        .map((m) => re.exec(m)?.[0])
        .filter(Boolean)
        .at(-1);
      return link;
    })
    .toBeTruthy();
  return link!;
}
