// The edges a newcomer meets: an address of no screen, an account that is not there, the rules of a form before it is
// sent, and the invitation's delivery when the server has no mail service.
import { test, expect } from '@playwright/test';
import { MESSAGES } from '@portal/core';
import { createUser, loginToken } from './helpers';

test('an unknown address shows a not-found page that leads back, never the API answer', async ({ page, request }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Login' }).click();
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  const user = await createUser(request, 'edges');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/nope/nothing`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to My Account' }).click();
  await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
});

test('an account that is not there says so with a way back, not Retry', async ({ page, request }) => {
  const user = await createUser(request, 'edges');
  await loginToken(page, user);
  for (const screen of ['apikeys', 'integrations', 'members', 'projects']) {
    await page.goto(`/client/c_nope/${screen}`);
    await expect(page.getByRole('heading', { name: MESSAGES.clientNotFound })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  }
  await page.getByRole('link', { name: 'Back to My Account' }).click();
  await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
});
