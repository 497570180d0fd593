// Sessions you can see in the browser: signed in twice, the account page lists both with this one marked; ending the
// other makes its token useless at once.
import { test, expect } from '@playwright/test';
import { CALLS } from '@portal/core/contract/table';
import { createUser, loginUi } from './helpers';

test('the account page lists the sessions, marks this one and ends the other', async ({ page, request }) => {
  const user = await createUser(request, 'sessions');
  await loginUi(page, user);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Sessions' });
  const rows = section.getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(section.getByText('This session')).toHaveCount(1);
  await section.getByRole('button', { name: /^End session / }).click();
  await expect(rows).toHaveCount(2);
  await expect(section.getByRole('button', { name: 'End all other sessions' })).toBeDisabled();
  const other = await request.get(CALLS.sessionList.path, { headers: { authorization: `Bearer ${user.token}` } });
  expect(other.status()).toBe(401);
});
