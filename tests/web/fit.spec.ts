// The fit form's own drop zone: a new .json uploaded there is selected once Ready, and the request runs; then the
// model it trained is reused from the same form.
import { test, expect } from '@playwright/test';
import { MESSAGES } from '@portal/core';
import { mainAlert, chooseFile, createProject, createUser, loginToken, notice } from './helpers';

test('upload a .json from the fit form, then create the request with classification', async ({ page, request }) => {
  const user = await createUser(request, 'fitform');
  const project = await createProject(request, user, 'Fit form');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
  await expect(page.getByText('No Ready uploads yet: upload a table below.')).toBeVisible();
  await chooseFile(page, 'model.py', 'text/x-python', 'x = 1\n');
  await expect(mainAlert(page, MESSAGES.invalidFileType(['.json']))).toBeVisible();
  // Classes 0 and 1 as the target, so classification has two classes to learn.
  const rows = Array.from({ length: 40 }, (_, i) => [i / 40, Math.sin(i), (i % 7) / 7, i % 2]);
  await chooseFile(page, 'classes.json', 'application/json', JSON.stringify(rows));
  await expect(notice(page, MESSAGES.uploadSucceeded('classes.json'))).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Upload' })).toHaveText(/classes\.json/, { timeout: 60_000 });
  await page.getByLabel(/^Request name/).fill('Classes');
  await page.getByLabel(/^Input column size/).fill('3');
  await page.getByLabel(/^Output column size/).fill('2');
  await page.getByLabel(/^Task$/).click();
  await page.getByRole('option', { name: 'classification' }).click();
  await page.getByRole('button', { name: 'Create Request' }).click();
  // It lands on the fit; its embeddings (the generate run, named apart) are one click away, downloadable once Finished.
  await expect(page).toHaveURL(/\/run\/[^/]+\/details$/);
  await expect(page.getByRole('heading', { name: 'Classes', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Classes (embeddings)' }).first().click();
  await expect(page.getByRole('button', { name: 'Download Results' })).toBeEnabled({ timeout: 90_000 });

  // The trained model reused on the same upload: only the generate run, straight to its details. Then a general
  // model, offered after the project's own, which needs no training either.
  const reuse = async (name: string, model: string) => {
    await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
    await page.getByRole('radio', { name: 'Reuse a trained model' }).check();
    await expect(page.getByLabel(/^Input column size/)).toHaveCount(0);
    await page.getByLabel(/^Request name/).fill(name);
    await page.getByRole('combobox', { name: 'Model' }).click();
    await expect(page.getByRole('option').first()).toHaveText('Classes');
    await page.getByRole('option', { name: model, exact: true }).click();
    await page.getByRole('combobox', { name: 'Upload' }).click();
    await page.getByRole('option', { name: 'classes.json' }).click();
    await page.getByRole('button', { name: 'Create Request' }).click();
    await expect(page).toHaveURL(/\/run\/[^/]+\/details$/);
    await expect(page.getByText(name).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download Results' })).toBeEnabled({ timeout: 90_000 });
  };
  await reuse('Classes again', 'Classes');
  await reuse('General classes', 'Tabular classification (general)');
});
