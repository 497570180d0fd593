// Run insight in the browser: a real fit's timeline, progress, loss chart, event log, duration and Run again; the
// requests list's filters; the usage page's charts, periods and quotes; the login page loads no chart code.
import { test, expect, type Response } from '@playwright/test';
import { MESSAGES } from '@portal/core';
import {
  MODEL_PY,
  checkA11y,
  auth,
  createProject,
  createUser,
  fitJson,
  fitThroughApi,
  loginToken,
  notice,
  shrinkThroughApi,
  uploadFile,
} from './helpers';

test('a fit shows its state timeline, loss chart, event log and duration, and runs again', async ({ page, request }) => {
  const user = await createUser(request, 'insight');
  const project = await createProject(request, user, 'Insight');
  const upload = await uploadFile(request, user, project, 'train.json', fitJson(300));
  const gen = await fitThroughApi(request, user, project, upload, 'Watched fit');
  const fit = (await (await request.get(`/api/run/status?run=${gen}`, { headers: auth(user) })).json()).run.record.fit as string;
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${project}/run/${fit}/details`);
  await expect(page.getByRole('heading', { name: 'Watched fit' })).toBeVisible();
  const timeline = page.getByLabel('State timeline');
  for (const state of ['Pending', 'Processing', 'Finished']) await expect(timeline.getByText(state, { exact: true })).toBeVisible();
  const chart = page.getByRole('region', { name: 'Loss chart' });
  await expect(chart.getByText('Training loss')).toBeVisible();
  await expect(chart.getByText('Validation loss')).toBeVisible();
  // Two drawn lines: training and validation loss.
  await expect(chart.locator('svg path.MuiLineChart-line, svg .MuiLineElement-root')).toHaveCount(2);
  const log = page.getByRole('region', { name: 'Event log' });
  await expect(log.getByText(/^Held-out score: R²/)).toBeVisible();
  await expect(log.getByRole('cell', { name: 'Finished', exact: true })).toBeVisible();
  await expect(log.getByRole('cell', { name: 'progress' }).first()).toBeVisible();
  await expect(page.getByText(/^\d+ (s|min)/).first()).toBeVisible();
  await checkA11y(page, 'request details with its timeline, loss chart and event log');
  // The generate request (where the fit form leads) shows its model's training too.
  await page.goto(`/client/${user.clientId}/project/${project}/run/${gen}/details`);
  await expect(page.getByRole('heading', { name: 'Loss per epoch of its model’s training' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Loss chart' }).getByText('Validation loss')).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Event log' })
      .getByText(/^\d[\d,]* of [\d,]+ rows$/)
      .first(),
  ).toBeVisible();
  await page.goto(`/client/${user.clientId}/project/${project}/run/${fit}/details`);
  await page.getByRole('button', { name: 'Run again' }).click();
  await expect(notice(page, MESSAGES.rerunStarted)).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(`/run/${fit}/details$`));
  await expect(page).toHaveURL(/\/run\/[^/]+\/details$/);
  // The new fit trains live: its chart and log fill in as it runs, and it finishes.
  await expect(page.getByLabel('State timeline').getByText('Finished', { exact: true })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('region', { name: 'Loss chart' }).getByText('Validation loss')).toBeVisible();

  // The requests list filters by function and status.
  await page.goto(`/client/${user.clientId}/project/${project}/runs`);
  await expect(page.getByRole('button', { name: /^Open / })).toHaveCount(4);
  await page.getByLabel('Function').click();
  await page.getByRole('option', { name: 'fit' }).click();
  await expect(page.getByRole('button', { name: /^Open / })).toHaveCount(2);
  await page.getByLabel('Status').click();
  await page.getByRole('option', { name: 'Failed' }).click();
  await expect(page.getByText(MESSAGES.noRequests)).toBeVisible();
});

test('the usage page charts requests, parameters and spend per day, switches periods and links its quotes', async ({ page, request }) => {
  const user = await createUser(request, 'usage');
  const project = await createProject(request, user, 'Usage');
  const upload = await uploadFile(request, user, project, 'train.json', fitJson(60));
  await fitThroughApi(request, user, project, upload, 'Counted');
  const py = await uploadFile(request, user, project, 'model.py', MODEL_PY);
  const quote = await shrinkThroughApi(request, user, project, py, 'Billed');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/usage`);
  await expect(page.getByRole('heading', { name: 'Usage', exact: true })).toBeVisible();
  await expect(page.getByLabel('Totals')).toHaveText(/^Last 30 days \(UTC\): 3 requests \(1 fit, 1 generate, 1 shrink\)/);
  for (const name of ['Requests per day', 'Input parameters per day', 'Spend per day'])
    await expect(page.getByRole('region', { name }).locator('svg').first()).toBeVisible();
  await checkA11y(page, 'usage page');
  await page.getByRole('button', { name: '7 days' }).click();
  await expect(page.getByLabel('Totals')).toHaveText(/^Last 7 days \(UTC\)/);
  await page.getByRole('button', { name: '90 days' }).click();
  await expect(page.getByLabel('Totals')).toHaveText(/^Last 90 days \(UTC\)/);
  const quotes = page.getByRole('region', { name: 'Quotes', exact: true });
  await expect(quotes.getByRole('row', { name: /Billed/ })).toContainText(/Unpaid|Paid/);
  await quotes.getByRole('link', { name: 'Billed' }).click();
  await expect(page).toHaveURL(new RegExp(`/quote/${quote}/details$`));
  // The sidebar reaches the usage page.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${user.clientId}/usage$`));
});

test('the login page loads no chart code', async ({ page }) => {
  // The scripts' bodies are read once the page is idle, inside the test: a read still pending when the test ends
  // fails it ("response.text: Test ended").
  const responses: Response[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') responses.push(res);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const scripts = await Promise.all(responses.map((r) => r.text()));
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => s.includes('MuiChartsSurface') || s.includes('MuiLineChart'))).toEqual([]);
});
