// The account page's changes in the browser, at 1280 px and on a 390 px phone without sideways scroll: the password
// (other sessions end), the email through the link mailed to the new address, the export as a JSON download, and
// deleting the account behind a dialog asking the password and, with two-factor sign-in on, a code generated here.
import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { ACCOUNT_MESSAGES, SECURITY_MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { admin, checkA11y, createUser, loginToken, mailedLink, PASSWORD, TOKEN_KEY } from './helpers';

const NEW_PASSWORD = 'An0ther!Pass';

/** Signs in again through the API (another session), answering its token. */
async function otherSession(request: import('@playwright/test').APIRequestContext, email: string, password = PASSWORD) {
  const r = await request.post(CALLS.login.path, {
    headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` },
  });
  return (await r.json()).token as string;
}

/** The sessions listed: table rows at 1280 px (the header row too), cards (list items) on a phone. */
const sessions = (page: Page, width: number) => page.getByRole('region', { name: 'Sessions' }).getByRole(width > 500 ? 'row' : 'listitem');
/** How many the sessions list shows for `n` sessions: a table has a header row, a phone's cards none. */
const sessionCount = (n: number, width: number) => (width > 500 ? n + 1 : n);

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

for (const width of [1280, 390]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: width > 500 ? 800 : 844 } });

    test('changes the password (other sessions end) and the email through the mailed link', async ({ page, request }) => {
      const user = await createUser(request, `acct${width}`);
      const other = await otherSession(request, user.email);
      await loginToken(page, user);
      await page.goto('/account');
      await expect(sessions(page, width)).toHaveCount(sessionCount(2, width));
      const pw = page.getByRole('region', { name: 'Password' });
      await expect(pw).toBeVisible();
      await noSidewaysScroll(page);
      await pw.getByLabel('Current password').fill('not-mine');
      await pw.getByLabel(/^New password/).fill(NEW_PASSWORD);
      await pw.getByLabel('Confirm new password').fill(NEW_PASSWORD);
      await pw.getByRole('button', { name: 'Change password' }).click();
      await expect(pw.getByRole('alert')).toHaveText(ACCOUNT_MESSAGES.passwordWrong);
      await pw.getByLabel('Current password').fill(PASSWORD);
      await pw.getByRole('button', { name: 'Change password' }).click();
      await expect(pw.getByText(ACCOUNT_MESSAGES.passwordChanged)).toBeVisible();
      // The sessions list reads again: only this one is left.
      await expect(sessions(page, width)).toHaveCount(sessionCount(1, width));
      // The account's own log reads again too: the change is among its security events, said as a sentence.
      await expect(
        page.getByRole('region', { name: 'Security events' }).getByText('Changed the password (1 other session ended)'),
      ).toBeVisible();
      await noSidewaysScroll(page);
      expect((await request.get(CALLS.sessionList.path, { headers: { authorization: `Bearer ${other}` } })).status()).toBe(401);

      const next = `new-${user.email}`;
      const em = page.getByRole('region', { name: 'Email address' });
      await em.getByLabel('New email address').fill(next);
      await em.getByLabel('Current password').fill(NEW_PASSWORD);
      await em.getByRole('button', { name: 'Send confirmation link' }).click();
      await expect(em.getByText(ACCOUNT_MESSAGES.emailSent(next))).toBeVisible();
      await expect(em.getByText(`Waiting for confirmation: ${next}`)).toBeVisible();
      await noSidewaysScroll(page);
      await checkA11y(page, `account-changes-${width}`);

      const link = await mailedLink(next, /https?:\/\/\S+\/account\/email\/confirm\?token=\S+/);
      // The link works signed out too (another browser, another device).
      await page.evaluate((k) => localStorage.removeItem(k), TOKEN_KEY);
      const url = new URL(link);
      await page.goto(url.pathname + url.search);
      await expect(page.getByRole('heading', { name: 'Confirm your new email address' })).toBeVisible();
      await noSidewaysScroll(page);
      await page.getByRole('button', { name: 'Confirm email address' }).click();
      await expect(page.getByText(ACCOUNT_MESSAGES.emailConfirmed(next))).toBeVisible();
      // Used once.
      await page.reload();
      await page.getByRole('button', { name: 'Confirm email address' }).click();
      await expect(page.getByRole('alert')).toHaveText(ACCOUNT_MESSAGES.emailLinkInvalid);
      expect(await otherSession(request, next, NEW_PASSWORD)).toBeTruthy();
    });

    test('exports the account as a JSON download and deletes it with the password and a code', async ({ page, request }) => {
      const user = await createUser(request, `del${width}`);
      const headers = { authorization: `Bearer ${user.token}` };
      const secret = (await (await request.post(CALLS.otpSetup.path, { headers })).json()).otp.secret as string;
      const code = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
      expect((await request.post(CALLS.otpEnable.path, { headers, data: { code: await code(0) } })).status()).toBe(200);
      await loginToken(page, user);
      await page.goto('/account');

      const ex = page.getByRole('region', { name: 'Export your data' });
      const [file] = await Promise.all([page.waitForEvent('download'), ex.getByRole('button', { name: 'Export account data' }).click()]);
      expect(file.suggestedFilename()).toMatch(/^portal-.*\.json$/);
      const data = JSON.parse(readFileSync((await file.path())!, 'utf8'));
      expect(data.user.email).toBe(user.email);
      await expect(ex.getByText(ACCOUNT_MESSAGES.exported(file.suggestedFilename()))).toBeVisible();

      const del = page.getByRole('region', { name: 'Delete account' });
      await del.getByRole('button', { name: 'Delete account…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account' });
      await expect(dialog.getByText(ACCOUNT_MESSAGES.deleteConfirm)).toBeVisible();
      await noSidewaysScroll(page);
      await dialog.getByLabel('Password').fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect(dialog.getByRole('alert')).toHaveText(SECURITY_MESSAGES.otpRequired);
      await checkA11y(page, `account-delete-${width}`);
      await dialog.getByLabel('Two-factor code').fill(await code(1));
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByText(ACCOUNT_MESSAGES.deleted)).toBeVisible();
      expect((await request.get(CALLS.sessionList.path, { headers })).status()).toBe(401);
    });
  });
}

test('deleting is refused while the last owner of a client with other members, saying what to do', async ({ page, request }) => {
  const owner = await createUser(request, 'lastowner');
  const member = await createUser(request, 'member');
  admin('grant', member.email, owner.clientId);
  await loginToken(page, owner);
  await page.goto('/account');
  await page.getByRole('region', { name: 'Delete account' }).getByRole('button', { name: 'Delete account…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account' });
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(ACCOUNT_MESSAGES.lastOwner([owner.company]));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('region', { name: 'Delete account' })).toBeVisible();
});

test('an email change waiting for its link can be cancelled; its link then no longer works', async ({ page, request }) => {
  const user = await createUser(request, 'emailcancel');
  await loginToken(page, user);
  await page.goto('/account');
  const em = page.getByRole('region', { name: 'Email address' });
  const next = `other-${user.email}`;
  await em.getByLabel('New email address').fill(next);
  await em.getByLabel('Current password').fill(PASSWORD);
  await em.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(em.getByText(`Waiting for confirmation: ${next}`)).toBeVisible();
  await em.getByRole('button', { name: 'Cancel change' }).click();
  await expect(em.getByText(ACCOUNT_MESSAGES.emailCancelled)).toBeVisible();
  await expect(em.getByText('Waiting for confirmation')).toHaveCount(0);
  const link = new URL(await mailedLink(next, /https?:\/\/\S+\/account\/email\/confirm\?token=\S+/));
  await page.goto(link.pathname + link.search);
  await page.getByRole('button', { name: 'Confirm email address' }).click();
  await expect(page.getByRole('alert')).toHaveText(ACCOUNT_MESSAGES.emailLinkInvalid);
});
