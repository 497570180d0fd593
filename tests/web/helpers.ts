// Shared steps of the browser tests: users made through the real API, sign-in via the stored token, the admin CLI, axe.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATA_DIR = process.env.PORTAL_E2E_DATA_DIR!;
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
    env: { ...process.env, DATA_DIR },
    encoding: 'utf8',
  });
}

/** Axe on the current page: no serious or critical violations. */
export async function checkA11y(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('\n  ')}`).join('\n');
  expect(bad, `${what}\n${summary}`).toEqual([]);
}

const SHOTS = join(ROOT, 'test-results', 'web', 'screenshots');

/** Keeps a screenshot of a route as a test artifact. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** A notification of the stack (notistack) with this exact text. */
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
