// The upload preview in the browser: a table's rows and column statistics, a model's layers, long values whole on hover.
import { test, expect } from '@playwright/test';
import { createProject, createUser, loginToken, MODEL_PY, shot, uploadFile } from './helpers';

test('an upload file shows its preview: formatted rows, each column with type, range, mean, missing and a histogram', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'preview');
  const bucket = await createProject(request, user, 'Preview');
  const rows = Array.from({ length: 150 }, (_, i) => [i * 1000, i / 3, i % 2]);
  await uploadFile(request, user, bucket, 'table.json', JSON.stringify({ columns: ['amount', 'third', 'flag'], rows }));
  await uploadFile(request, user, bucket, 'model.py', MODEL_PY);
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${bucket}/uploads`);

  await page.getByRole('button', { name: 'Preview table.json' }).click();
  const dialog = page.getByRole('dialog', { name: 'Preview of table.json' });
  await expect(dialog.getByText('150 rows, 3 columns')).toBeVisible();
  await expect(dialog.getByText('Showing the first 100 of 150 rows; the statistics cover every row.')).toBeVisible();
  const table = dialog.getByRole('table', { name: 'Preview rows' });
  await expect(table.getByRole('row')).toHaveCount(101);
  // Numbers formatted; the exact value on hover.
  await expect(table.getByRole('row').nth(3).getByRole('cell').nth(1)).toHaveText('2,000');
  await expect(table.getByRole('row').nth(3).getByRole('cell').nth(2)).toHaveText('0.666667');
  await expect(table.getByRole('row').nth(3).getByRole('cell').nth(2)).toHaveAttribute('title', String(2 / 3));
  const amount = table.getByRole('columnheader', { name: /amount/ });
  await expect(amount).toContainText('type integer');
  await expect(amount).toContainText('max 149,000');
  await expect(amount).toContainText('mean 74,500');
  await expect(amount).toContainText('missing 0');
  await expect(amount.getByLabel('histogram')).toBeVisible();
  await shot(page, 'upload-preview-table');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Preview model.py' }).click();
  const model = page.getByRole('dialog', { name: 'Preview of model.py' });
  await expect(model.getByText(/layers, [\d,]+ parameters/)).toBeVisible();
  await expect(model.getByRole('table', { name: 'Model layers' }).getByRole('row').nth(1)).toBeVisible();
});
