// The shared data cache as people meet it: a page load asks each call once, Back draws the list at once from what
// was seen (read again behind it), and a rename shows on every screen without a reload, the old name never drawn again.
import { test, expect, type Page } from '@playwright/test';
import { createProject, createUser, loginToken, rowAction } from './helpers';

/** Holds every answer of an API path back by `ms`, so what a screen draws meanwhile came from the cache. */
async function slowAnswers(page: Page, path: string, ms: number) {
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      await new Promise((r) => setTimeout(r, ms));
      await route.continue();
    },
  );
}

test('a page load asks no call twice', async ({ page, request }) => {
  const user = await createUser(request, 'once');
  await createProject(request, user, 'Greenhouse');
  await loginToken(page, user);
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/') && r.method() === 'GET') asked.push(`${url.pathname}${url.search}`);
  });
  await page.goto(`/client/${user.clientId}/projects`);
  await expect(page.getByRole('cell', { name: 'Greenhouse', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const twice = asked.filter((a, i) => asked.indexOf(a) !== i);
  expect(twice, asked.join('\n')).toEqual([]);
});

test('Back draws the list at once, and a rename shows everywhere without a reload, the old name never drawn after it', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'back');
  const project = await createProject(request, user, 'Greenhouse');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${project}/runs`);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
  await expect(crumbs.getByText('Greenhouse', { exact: true })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByRole('cell', { name: 'Greenhouse', exact: true })).toBeVisible();

  await rowAction(page, 'Rename', 'Greenhouse');
  await page.getByRole('dialog').getByLabel('Name').fill('Glasshouse');
  // From the moment the rename is sent, no screen may draw the old name again.
  await page.evaluate(() => {
    const w = window as unknown as { oldNameDrawn: boolean };
    w.oldNameDrawn = false;
    new MutationObserver(() => {
      if (document.body.innerText.includes('Greenhouse') && !document.querySelector('[role="dialog"]')) w.oldNameDrawn = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('cell', { name: 'Glasshouse', exact: true })).toBeVisible();

  // Back to the project: its requests are read again slowly, so what shows at once is the cache, already renamed.
  await slowAnswers(page, '/api/run/item', 3_000);
  await page.goBack();
  await expect(crumbs.getByText('Glasshouse', { exact: true })).toBeVisible({ timeout: 1_000 });
  // Forward to the list: its names at once from the cache, no loading state, while the list is read again behind.
  await slowAnswers(page, '/api/bucket/item', 3_000);
  await page.goForward();
  await expect(page.getByRole('cell', { name: 'Glasshouse', exact: true })).toBeVisible({ timeout: 1_000 });
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { oldNameDrawn: boolean }).oldNameDrawn)).toBe(false);
});
