// Lists that page on the server once long: a client with 10,000 projects sees the first page of 25 at once, walks
// the pages with Next and Previous (kept in the URL: reload and Back return to the page), newest first; the filter
// box searches every name on the server and the Created sort turns the server's order.
import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { createUser, DATABASE_URL, loginToken } from './helpers';

/** A statement on the run's own PostgreSQL database (see playwright.config.ts). */
function sql(statement: string) {
  execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qc', statement], { stdio: 'pipe', timeout: 30_000 });
}

const name = (i: number) => `Project ${String(i).padStart(5, '0')}`;

test('10,000 projects: the first page of 25 newest first, Next and Previous, a search and the order on the server, all in the URL', async ({
  page,
  request,
}) => {
  test.skip(!DATABASE_URL, "needs the run's own PostgreSQL database (10,000 projects are written there in one statement)");
  const user = await createUser(request, 'many');
  sql(`insert into buckets (stamp, client, name, active, created_at)
       select 'b_many_${user.clientId}_' || i, '${user.clientId}', 'Project ' || lpad(i::text, 5, '0'), 1, 1700000000 + i
       from generate_series(1, 10000) i`);
  await loginToken(page, user);

  const table = page.getByRole('table', { name: 'Projects' });
  const rows = table.getByRole('row');
  const firstRow = () => rows.nth(1);
  const started = Date.now();
  await page.goto(`/client/${user.clientId}/projects`);
  // Newest first, as a short list opens.
  await expect(firstRow()).toContainText(name(10_000));
  // The first page is 25 rows asked of the server, not 10,000 held in the browser.
  const shownIn = Date.now() - started;
  expect(shownIn, `the first page took ${shownIn} ms`).toBeLessThan(10_000);
  await expect(rows).toHaveCount(26);
  const pages = page.getByLabel('Projects pages');
  await expect(pages).toContainText('1-25 of more than 25');

  await pages.getByRole('button', { name: 'Go to next page' }).click();
  await expect(firstRow()).toContainText(name(9_975));
  await expect(pages).toContainText('26-50 of more than 50');
  await expect(page).toHaveURL(/after=/);
  await pages.getByRole('button', { name: 'Go to next page' }).click();
  await expect(firstRow()).toContainText(name(9_950));
  await pages.getByRole('button', { name: 'Go to previous page' }).click();
  await expect(firstRow()).toContainText(name(9_975));

  // Reload and Back bring the page back: the pages walked are in the URL.
  await page.reload();
  await expect(firstRow()).toContainText(name(9_975));
  await page.goBack();
  await expect(firstRow()).toContainText(name(9_950));
  await page.goBack();
  await expect(firstRow()).toContainText(name(9_975));

  // The filter box of a long project list searches every name on the server, from the first page; the URL keeps it.
  const search = page.getByLabel('Search projects');
  await search.fill('00030');
  await expect(rows).toHaveCount(2);
  await expect(firstRow()).toContainText(name(30));
  await expect(page).toHaveURL(/q=00030/);
  await expect(page).not.toHaveURL(/after=/);
  await expect(pages).toContainText('1-1 of 1');
  await page.reload();
  await expect(firstRow()).toContainText(name(30));
  await page.getByLabel('Search projects').fill('no such project');
  await expect(table).toContainText('No name matches the search.');
  await page.getByLabel('Search projects').fill('');
  await expect(firstRow()).toContainText(name(10_000));

  // The Created sort is the server's order: up is oldest first, from the first page; down newest first again.
  await page.getByRole('button', { name: 'Created', exact: true }).click();
  await expect(page).toHaveURL(/sort=createdAt/);
  await expect(firstRow()).toContainText(name(1));
  await pages.getByRole('button', { name: 'Go to next page' }).click();
  await expect(firstRow()).toContainText(name(26));
  await page.getByRole('button', { name: 'Created', exact: true }).click();
  await expect(firstRow()).toContainText(name(10_000));
  await expect(pages).toContainText('1-25 of more than 25');
  // Another column sorts the page shown.
  await page.getByRole('button', { name: 'Name', exact: true }).click();
  await expect(page).toHaveURL(/sort=name/);
  await expect(firstRow()).toContainText(name(9_976));
  await page.getByRole('button', { name: 'Name', exact: true }).click();
  await expect(page).toHaveURL(/sort=-name/);
  await expect(firstRow()).toContainText(name(10_000));
});
