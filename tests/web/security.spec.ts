// Two-factor sign-in in the browser: the password step asks for a code, a wrong code says so, the code from the
// authenticator (generated here from the secret the server showed) opens My Account.
import { test, expect } from '@playwright/test';
import { generate } from 'otplib';
import { SECURITY_MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { checkA11y, createUser, loginToken, PASSWORD, TOKEN_KEY } from './helpers';

test('login with two-factor sign-in on: a second step for the code, then My Account', async ({ page, request }) => {
  const user = await createUser(request, 'otp');
  const headers = { authorization: `Bearer ${user.token}` };
  const setup = await (await request.post(CALLS.otpSetup.path, { headers })).json();
  const secret = setup.otp.secret as string;
  const code = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
  const on = await request.post(CALLS.otpEnable.path, { headers, data: { code: await code(0) } });
  expect(on.status()).toBe(200);

  await page.goto('/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(SECURITY_MESSAGES.otpRequired)).toBeVisible();
  // The password step stored nothing a call would accept.
  expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBeFalsy();
  await page.getByLabel('Two-factor code').fill('zzzzz-zzzzz');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText(SECURITY_MESSAGES.otpInvalid);
  await page.getByLabel('Two-factor code').fill(await code(1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/account$/);
  expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBeTruthy();
});

test('the account page turns two-factor sign-in on (QR code, secret, code, recovery codes once) and off with a code', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'otpweb');
  await loginToken(page, user);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(section.getByAltText('QR code for your authenticator app')).toBeVisible();
  await checkA11y(page, 'account-two-factor-setup');
  const secret = (await section.getByLabel('Secret').textContent())!.trim();
  const code = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
  await section.getByLabel('Code').fill('000000' === (await code(0)) ? '111111' : '000000');
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByRole('alert')).toHaveText(SECURITY_MESSAGES.otpInvalid);
  await section.getByLabel('Code').fill(await code(0));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByText(SECURITY_MESSAGES.otpEnabled)).toBeVisible();
  const codes = (await section.getByLabel('Recovery codes').textContent())!.trim().split('\n');
  expect(codes).toHaveLength(10);
  const [file] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download' }).click()]);
  expect(file.suggestedFilename()).toBe('portal-recovery-codes.txt');
  await section.getByRole('button', { name: 'I have kept them' }).click();
  // Shown once: gone from the page, and the section says it is on.
  await expect(section.getByLabel('Recovery codes')).toHaveCount(0);
  await expect(section.getByText('Recovery codes left: 10')).toBeVisible();

  // The password alone no longer signs in.
  const step = await request.post(CALLS.login.path, {
    headers: { authorization: `Basic ${Buffer.from(`${user.email}:${PASSWORD}`).toString('base64')}` },
  });
  expect((await step.json()).token).toBeUndefined();

  await section.getByLabel('Password').fill(PASSWORD);
  await section.getByLabel('Code').fill(codes[0]);
  await section.getByRole('button', { name: 'Turn off' }).click();
  await expect(section.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeVisible();
});
