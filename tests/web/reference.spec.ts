// The API reference: the API keys page links to /api/docs, which renders every call from /api/openapi.json under the
// server's CSP with nothing fetched from another origin (it works offline).
import { test, expect } from '@playwright/test';
import { API_DOCS_PATH, CALL_REFERENCE } from '@portal/core';
import { createUser, loginToken } from './helpers';

test('the API keys page links to the reference, which renders every call offline under the CSP', async ({ page, request, context }) => {
  const user = await createUser(request, 'docs');
  const elsewhere: string[] = [];
  const problems: string[] = [];
  await context.route(
    (url) => url.hostname !== 'localhost' && url.hostname !== '127.0.0.1',
    (route) => {
      elsewhere.push(route.request().url());
      return route.abort();
    },
  );
  page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
  page.on('pageerror', (e) => void problems.push(e.message));

  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/apikeys`);
  const link = page.getByRole('link', { name: 'API reference' });
  await expect(link).toHaveAttribute('href', API_DOCS_PATH);
  await page.goto(API_DOCS_PATH);
  await expect(page.getByRole('heading', { name: /Portal API/ })).toBeVisible();
  // Every call is listed by its summary (one per operation).
  for (const ref of Object.values(CALL_REFERENCE).slice(0, 5))
    await expect(page.getByText(ref.summary, { exact: true }).first()).toBeAttached();
  await expect(page.locator('.opblock')).toHaveCount(Object.keys(CALL_REFERENCE).length);
  // An operation opens with its parameters and answers.
  await page.getByText(CALL_REFERENCE.bucketList.summary, { exact: true }).first().click();
  await expect(page.getByText('cursor', { exact: true }).first()).toBeVisible();
  expect(elsewhere).toEqual([]);
  expect(problems).toEqual([]);
});
