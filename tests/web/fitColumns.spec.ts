// The data-aware fit form at 1280x800: a CSV with a text label uploaded in the browser, its columns listed with their
// types, the target found by its name, the inputs capped at the plan with SPEC's sentence, the task from the target,
// a line per size, a refusal naming the column; then the request lands on the fit. And a model that needs a key.
import { test, expect } from '@playwright/test';
import { FIT_COLUMN_MESSAGES, OPENAI_TEXT_MODEL_ID, TEXT_EMBEDDING_MESSAGES, tableConvertedNote } from '@portal/core';
import { chooseFile, createProject, createUser, loginToken, notice, shot } from './helpers';

test.use({ viewport: { width: 1280, height: 800 } });

/** Six measurements and a text label: the first one tells the label, the others are noise. */
function flowersCsv(rows = 60): string {
  const names = ['setosa', 'versicolor', 'virginica'];
  const lines = ['f1,f2,f3,f4,f5,f6,label'];
  for (let i = 0; i < rows; i++) {
    const k = i % 3;
    const noise = Array.from({ length: 5 }, (_, j) => (Math.sin(i * (j + 2)) * 3).toFixed(3));
    lines.push([(k * 2 + Math.sin(i) * 0.2).toFixed(3), ...noise, names[k]].join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

test('a CSV with a text label: columns listed, target found, inputs capped, then the fit is the page it lands on', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'fitcols');
  const project = await createProject(request, user, 'Flowers');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
  await expect(page.getByRole('button', { name: 'Use sample data' })).toBeVisible();
  await chooseFile(page, 'flowers.csv', 'text/csv', flowersCsv());
  // Converted in the browser, and it says so.
  await expect(notice(page, tableConvertedNote('flowers.csv'))).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Upload' })).toHaveText(/flowers\.json/, { timeout: 60_000 });

  const columns = page.getByRole('region', { name: 'Columns' });
  await expect(columns.getByRole('combobox', { name: 'Target column' })).toHaveText(/^label/, { timeout: 30_000 });
  for (const name of ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']) await expect(columns.getByRole('checkbox', { name })).toBeVisible();
  await expect(columns.getByText('category', { exact: false }).first()).toBeVisible();
  // All other columns by default, capped at the Individual plan's 3, with SPEC's sentence and the upgrade link.
  await expect(columns.getByRole('checkbox', { name: /^f1/ })).toBeChecked();
  await expect(columns.getByRole('checkbox', { name: /^f3/ })).toBeChecked();
  await expect(columns.getByRole('checkbox', { name: /^f4/ })).not.toBeChecked();
  await expect(columns.getByText('Individual plans are limited to 3 input features')).toBeVisible();
  await expect(columns.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/contact.html');
  await expect(columns.getByRole('combobox', { name: 'Task' })).toHaveText('classification');
  await expect(columns.getByText('Input column size 3: the model reads these 3 columns of each row (f1, f2, f3).')).toBeVisible();
  await expect(columns.getByText('Task target size 1: the model learns to predict label (its classes).')).toBeVisible();
  await expect(columns.getByText(/^Output column size 3: each row becomes a vector of 3 numbers/)).toBeVisible();
  await shot(page, 'fit-columns');

  // Regression on a text target is refused with a sentence naming the column.
  await columns.getByRole('combobox', { name: 'Task' }).click();
  await page.getByRole('option', { name: 'regression' }).click();
  await expect(columns.getByText(FIT_COLUMN_MESSAGES.textForRegression('label'))).toBeVisible();
  await columns.getByRole('combobox', { name: 'Task' }).click();
  await page.getByRole('option', { name: 'classification' }).click();

  await page.getByLabel(/^Request name/).fill('Flowers');
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(page).toHaveURL(/\/run\/[^/]+\/details$/);
  await expect(page.getByRole('heading', { name: 'Flowers', exact: true })).toBeVisible();
  await expect(page.getByText('fit', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Flowers (embeddings)' }).first()).toBeVisible();
});

test('a general model that needs an integration key cannot be picked without one, and the form links to Integrations', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'fitkey');
  const project = await createProject(request, user, 'Texts');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
  await page.getByRole('radio', { name: 'Reuse a trained model' }).check();
  await page.getByRole('combobox', { name: 'Model' }).click();
  const gated = page.getByRole('option', { name: /OpenAI text embeddings/ });
  await expect(gated).toBeVisible();
  await expect(gated).toHaveAttribute('aria-disabled', 'true');
  await expect(gated).toContainText(TEXT_EMBEDDING_MESSAGES.noKey);
  await page.keyboard.press('Escape');
  const link = page.getByRole('main').getByRole('link', { name: 'Open Integrations' });
  await expect(link).toHaveAttribute('href', `/client/${user.clientId}/integrations`);
  expect(OPENAI_TEXT_MODEL_ID).toMatch(/^general-openai-/);
});
