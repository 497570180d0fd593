// Rename and remove on the upload, model and project lists, filter and sort, and upload errors shown in the list.
import { test, expect } from '@playwright/test';
import { MESSAGES } from '@portal/core';
import { createApiKey, createProject, createUser, fitJson, fitThroughApi, loginToken, shot, uploadFile, rowAction } from './helpers';

test('uploads, models and projects: filter, sort, rename with the title rule, remove after confirming', async ({ page, request }) => {
  const user = await createUser(request, 'lists');
  const project = await createProject(request, user, 'Plant sensors');
  await createProject(request, user, 'Archive');
  const upload = await uploadFile(request, user, project, 'readings.json', fitJson());
  await uploadFile(request, user, project, 'broken.json', '{"rows": [[1, 2], [3');
  await fitThroughApi(request, user, project, upload, 'Plant model');
  await loginToken(page, user);

  // Projects: filter and sort.
  await page.goto(`/client/${user.clientId}/projects`);
  await expect(page.getByRole('cell', { name: 'Plant sensors', exact: true })).toBeVisible();
  await page.getByLabel('Filter projects').fill('arch');
  await expect(page.getByRole('cell', { name: 'Plant sensors', exact: true })).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'Archive', exact: true })).toBeVisible();
  await page.getByLabel('Filter projects').fill('');
  await page.getByRole('button', { name: 'Name', exact: true }).click();
  await expect(page.getByRole('row').nth(1)).toContainText('Archive');
  await page.getByRole('button', { name: 'Name', exact: true }).click();
  await expect(page.getByRole('row').nth(1)).toContainText('Plant sensors');

  // Open on a project with uploads goes to its requests; the project's {projectId} spelling is the same path.
  await page.getByRole('button', { name: 'Open Plant sensors' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${project}/runs$`));

  // Uploads: the broken file shows its error; rename and remove.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Uploads' }).click();
  const broken = page.getByRole('row', { name: /broken\.json/ });
  await expect(broken.getByRole('cell', { name: 'Failed', exact: true })).toBeVisible();
  // A single file named as its upload is not named again: its line is its size and state.
  await expect(broken.getByText(/^[\d,.]+ \w+: Failed$/)).toBeVisible();
  // The item's error (meta.proc 2 or Failed) is shown under it.
  await expect(broken.locator('li p').first()).not.toBeEmpty();
  await shot(page, 'uploads-failed-item');
  await rowAction(page, 'Rename', 'broken.json');
  await page.getByRole('dialog').getByLabel('Name').fill('x'.repeat(0));
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('dialog').getByText(MESSAGES.titleRename)).toBeVisible();
  await page.getByRole('dialog').getByLabel('Name').fill('Bad data');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('cell', { name: 'Bad data', exact: true })).toBeVisible();
  await rowAction(page, 'Remove', 'Bad data');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('cell', { name: 'Bad data', exact: true })).toBeVisible();
  await rowAction(page, 'Remove', 'Bad data');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('cell', { name: 'Bad data', exact: true })).toHaveCount(0);

  // Models: the client's own model from the fit; rename and remove.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models' }).click();
  const own = page.getByRole('table', { name: 'Your models' });
  await expect(own.getByRole('row')).toHaveCount(2);
  const modelName = (await own.getByRole('row').nth(1).getByRole('cell').first().textContent())!;
  await rowAction(page, 'Rename', `${modelName}`);
  await page.getByRole('dialog').getByLabel('Name').fill('Plant embedding model');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(own.getByRole('cell', { name: 'Plant embedding model', exact: true })).toBeVisible();
  await rowAction(page, 'Remove', 'Plant embedding model');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(MESSAGES.noModels).last()).toBeVisible();

  // Projects: remove.
  await page.getByRole('link', { name: 'Projects' }).click();
  await rowAction(page, 'Remove', 'Archive');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('cell', { name: 'Archive', exact: true })).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'Plant sensors', exact: true })).toBeVisible();
});

test('clipboard failures show SPEC messages', async ({ page, request }) => {
  const user = await createUser(request, 'clip');
  const key = await createApiKey(request, user, 'CI key');
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) }, configurable: true });
  });
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/apikey/${key.clue}/info`);
  await page.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByText(MESSAGES.copyToken)).toBeVisible();
  await page.getByRole('button', { name: /Copy installer/ }).click();
  await expect(page.getByText(MESSAGES.copyCode)).toBeVisible();
  await page.getByRole('button', { name: 'Copy python example' }).click();
  await expect(page.getByText(MESSAGES.copyExample)).toBeVisible();
});

test('a failed request shows its message in red with Contact Support; server text is shown as text', async ({ page, request }) => {
  const user = await createUser(request, 'failed');
  const project = await createProject(request, user, '<img src=x onerror="window.__pwned=1">');
  // Classification needs at least two classes: a constant target makes the training fail with a message.
  const rows = Array.from({ length: 20 }, (_, i) => [i, i * 2, i % 3, 1]);
  const upload = await uploadFile(request, user, project, 'one-class.json', JSON.stringify(rows));
  await fitThroughApi(request, user, project, upload, 'One class request', 'classification');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/projects`);
  await expect(page.getByRole('cell', { name: '<img src=x onerror="window.__pwned=1">', exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await page.goto(`/client/${user.clientId}/project/${project}/runs`);
  const failed = page.getByRole('row', { name: /Failed/ }).first();
  await expect(failed).toBeVisible();
  const link = failed.getByRole('link', { name: 'Contact Support' });
  await expect(link).toHaveAttribute('href', '/contact.html');
  const color = await link.evaluate((el) => getComputedStyle(el.parentElement!).color);
  expect(color).toBe('rgb(255, 121, 97)');
  await failed.getByRole('button', { name: /^Open / }).click();
  await expect(page).toHaveURL(/\/run\/[^/]+\/details$/);
  // The requests list can stay on screen while the details page loads: wait for the details themselves.
  await expect(page.getByRole('heading', { level: 1, name: 'One class request' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Contact Support' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await shot(page, 'run-details-failed');
});
