// Sign-in screens and guarded routes: SPEC's validation messages where it puts them, reset by email, token rules, logout.
import { test, expect } from '@playwright/test';
import { MESSAGES } from '@portal/core';
import { checkA11y, createUser, loginToken, loginUi, mailedLink, notice, PASSWORD, shot, TOKEN_KEY, unique } from './helpers';

test('sign-up shows every rule message under its field and the terms message', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Username').fill('ab');
  await page.getByLabel('Company name').fill('Co');
  await page.getByLabel(/^Password/).fill('short');
  await page.getByLabel('Confirm password').fill('other');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  for (const m of [MESSAGES.email, MESSAGES.username, MESSAGES.companyName, MESSAGES.password, MESSAGES.passwordMismatch, MESSAGES.terms]) {
    await expect(page.getByText(m, { exact: true })).toBeVisible();
  }
  await expect(page).toHaveURL(/\/signup$/);
});

test('sign-up with an email already taken shows the server message', async ({ page, request }) => {
  const user = await createUser(request, 'taken');
  await page.goto('/signup');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Username').fill(unique('other'));
  await page.getByLabel('Company name').fill('Another company');
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('alert')).not.toHaveText(MESSAGES.signupFailed);
  await expect(page).toHaveURL(/\/signup$/);

  // A failure without a message of the server's, and one without any answer (SPEC section 8).
  await page.route('**/api/user/signup', (route) => route.fulfill({ status: 500, body: '' }), { times: 1 });
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('alert')).toHaveText(MESSAGES.signupFailed);
  await page.route('**/api/user/signup', (route) => route.abort('connectionrefused'), { times: 1 });
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('alert')).toHaveText(MESSAGES.unexpected);
});

test('login: wrong password shows Invalid credentials; the right one opens My Account', async ({ page, request }) => {
  const user = await createUser(request, 'login');
  await page.goto('/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('Wrong!Pass1');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText(MESSAGES.invalidCredentials);
  await loginUi(page, user);
  expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBeTruthy();
});

test('forgot password, then the emailed link sets a new password', async ({ page, request }) => {
  const user = await createUser(request, 'reset');
  await page.goto('/');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await checkA11y(page, 'forgot-password');
  await shot(page, 'forgot-password');
  await page.getByLabel('Email').fill('nobody');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(MESSAGES.email)).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(MESSAGES.resetStarted)).toBeVisible();

  // The embedded mailer writes each mail to DATA_DIR/outbox.
  const link = await mailedLink(user.email, /https?:\/\/\S*\/reset-password\?token=\S+/);
  const url = new URL(link);
  await page.goto(url.pathname + url.search);
  await checkA11y(page, 'reset-password');
  await shot(page, 'reset-password');
  await page.getByLabel('New password').fill('weak');
  await page.getByLabel('Confirm password').fill('different');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText(MESSAGES.password)).toBeVisible();
  await expect(page.getByText(MESSAGES.passwordMismatch)).toBeVisible();
  await page.getByLabel('New password').fill('N3w!Password');
  await page.getByLabel('Confirm password').fill('N3w!Password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText(MESSAGES.passwordChanged)).toBeVisible();
  await page.getByRole('link', { name: 'Login' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('N3w!Password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/account$/);
});

test('reset with a bad token shows Invalid credentials', async ({ page }) => {
  await page.goto('/reset-password?token=not-a-real-token');
  await page.getByLabel('New password').fill('N3w!Password');
  await page.getByLabel('Confirm password').fill('N3w!Password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toHaveText(MESSAGES.invalidCredentials);
});

test('a guarded route without a token goes to the root with Token missing', async ({ page }) => {
  await page.goto('/client/abc/projects');
  await expect(page).toHaveURL(/\/$/);
  const shown = Date.now();
  await expect(notice(page, MESSAGES.tokenMissing)).toBeVisible();
  // Errors stay 5 seconds (SPEC section 8).
  await expect(notice(page, MESSAGES.tokenMissing)).toBeHidden({ timeout: 10_000 });
  expect(Date.now() - shown).toBeGreaterThanOrEqual(4_500);
});

test('an expired token is removed and the root shows Token expired', async ({ page }) => {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const expired = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 })}.c2ln`;
  await loginToken(page, { token: expired });
  await page.goto('/account');
  await expect(page).toHaveURL(/\/$/);
  await expect(notice(page, MESSAGES.tokenExpired)).toBeVisible();
  expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBeNull();
});

test('a token the server refuses while on a page sends the user to the root', async ({ page, request }) => {
  const user = await createUser(request, 'refused');
  await loginToken(page, user);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
  // A well-formed token whose signature the server does not accept.
  const [h, p] = user.token.split('.');
  await page.evaluate(([k, t]) => localStorage.setItem(k, t), [TOKEN_KEY, `${h}.${p}.AAAA`]);
  await page.getByRole('link', { name: 'Compare Plans' }).click();
  await page.goto(`/client/${user.clientId}/projects`);
  await expect(page).toHaveURL(/\/$/);
  await expect(notice(page, /Token (expired|missing)/)).toBeVisible();
});

test('logout ends the session on the server, clears the token and goes to the root', async ({ page, request }) => {
  const user = await createUser(request, 'logout');
  await loginToken(page, user);
  await page.goto('/account');
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBeNull();
  // A copy of the token is refused from then on.
  await expect
    .poll(async () => (await request.get('/api/user/permission', { headers: { authorization: `Bearer ${user.token}` } })).status())
    .toBe(401);
});

test('keyboard only: log in, open a client and create a project', async ({ page, request }) => {
  const user = await createUser(request, 'keys');
  await page.goto('/');
  // The email field takes the focus on arrival.
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(user.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account$/);
  const open = page.getByRole('button', { name: /^Open / });
  for (let i = 0; i < 30 && !(await open.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(open).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/projects$/);
  const create = page.getByRole('button', { name: 'Create Project' });
  for (let i = 0; i < 30 && !(await create.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Typed project');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('cell', { name: 'Typed project', exact: true })).toBeVisible();
});
