// Two-factor sign-in in the browser: the password step asks for a code, a wrong code says so, the code from the
// authenticator (generated here from the secret the server showed) opens My Account.
import { test, expect } from '@playwright/test';
import { generate } from 'otplib';
import { CALLS, SECURITY_MESSAGES } from '@portal/core';
import { createUser, PASSWORD, TOKEN_KEY } from './helpers';

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
