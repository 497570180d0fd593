// One user's whole journey through the UI: every route reached by clicking, axe and a screenshot on each.
import { test, expect, type Page } from '@playwright/test';
import { MESSAGES, requestFunctionLabel } from '@portal/core';
import { mainAlert, chooseFile, checkA11y, dismissNotices, fitJson, notice, PASSWORD, shot, unique, rowAction } from './helpers';

async function visit(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await checkA11y(page, name);
  await shot(page, name);
}

test('sign up, keys, integrations, projects, uploads, a fit request to its results, a shrink quote, logout', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const username = unique('journey');
  const email = `${username}@example.com`;

  // Login page, then sign-up through its link.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await visit(page, 'login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await visit(page, 'signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Company name').fill(`Journey ${username}`.slice(0, 50));
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();

  // A new account lands on its Get started path; My Account lists the new client; Open goes to its projects (choice Cloud).
  await expect(page).toHaveURL(/\/get-started$/);
  await expect(page.getByRole('heading', { name: 'Get started', exact: true })).toBeVisible();
  await expect(page.locator('[data-step="project"]')).toHaveAttribute('data-done', 'false');
  await page.getByRole('link', { name: 'Accounts' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('cell', { name: /^Journey / })).toBeVisible();
  await visit(page, 'account');
  await page.getByRole('link', { name: 'Compare Plans' }).click();
  await expect(page.getByText('Current plan')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upgrade to Enterprise' })).toHaveAttribute('href', '/contact.html');
  await visit(page, 'plan');
  await page.getByRole('link', { name: 'Accounts' }).click();
  await page.getByRole('button', { name: /^Open Journey/ }).click();
  await expect(page).toHaveURL(/\/client\/[^/]+\/projects$/);
  await expect(page.getByText(MESSAGES.noProjects)).toBeVisible();
  await visit(page, 'projects');

  // API keys: create (only while empty), open its info, copy all three, rename, remove.
  await page.getByRole('link', { name: 'API Keys' }).click();
  await expect(page.getByText(MESSAGES.noApiKeys)).toBeVisible();
  await visit(page, 'apikeys');
  await page.getByRole('button', { name: 'Create API Key' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('dialog').getByText(MESSAGES.titleCreate)).toBeVisible();
  await page.getByRole('dialog').getByLabel('Name').fill('Laptop key');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('cell', { name: 'Laptop key', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create API Key' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open Laptop key' }).click();
  await expect(page).toHaveURL(/\/apikey\/[^/]+\/info$/);
  await expect(page.getByText(/^pip install "?http:\/\/localhost:\d+\/api\/pack\//)).toBeVisible();
  await visit(page, 'apikey-info');
  await page.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByRole('button', { name: 'Token copied' })).toHaveText('Copied');
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token.length).toBeGreaterThan(10);
  await expect(page.getByRole('button', { name: 'Copy token' })).toHaveText('Copy', { timeout: 3000 });
  await page.getByRole('button', { name: /Installer .*click to copy/ }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^pip install /);
  await page.getByRole('button', { name: 'Copy python example' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(token);
  await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'API Keys' }).click();
  await rowAction(page, 'Rename', 'Laptop key');
  await page.getByRole('dialog').getByLabel('Name').fill('   ');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('dialog').getByText(MESSAGES.titleRename)).toBeVisible();
  await page.getByRole('dialog').getByLabel('Name').fill('Build server key');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('cell', { name: 'Build server key', exact: true })).toBeVisible();
  await rowAction(page, 'Remove', 'Build server key');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(MESSAGES.noApiKeys)).toBeVisible();

  // Integrations: create with the token rule, masked in the list, rename, remove.
  await page.getByRole('link', { name: 'Integrations' }).click();
  await expect(page.getByText(MESSAGES.integrationNotFound)).toBeVisible();
  await visit(page, 'integrations');
  // The key's notice stands where the page's own buttons are: dismissed, as a user would.
  await dismissNotices(page);
  await page.getByRole('button', { name: 'Create Integration' }).click();
  await expect(page).toHaveURL(/\/create-integration$/);
  await visit(page, 'create-integration');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(MESSAGES.titleCreate)).toBeVisible();
  await expect(page.getByText(MESSAGES.integrationToken)).toBeVisible();
  await page.getByLabel('Name').fill('Embeddings service');
  await page.getByLabel('Token').fill('sk-test-0123456789abcdefghijklmnopqrstuvwxyz');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/integrations$/);
  await expect(page.getByRole('cell', { name: 'Embeddings service', exact: true })).toBeVisible();
  await expect(page.getByText('sk-test-0123456789abcdefghijklmnopqrstuvwxyz')).toHaveCount(0);
  await rowAction(page, 'Rename', 'Embeddings service');
  await page.getByRole('dialog').getByLabel('Name').fill('LLM key');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('cell', { name: 'LLM key', exact: true })).toBeVisible();
  await rowAction(page, 'Remove', 'LLM key');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(MESSAGES.integrationNotFound)).toBeVisible();

  // Projects: create, rename; Open on a project without uploads goes to create-shrink-run.
  await page.getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('button', { name: 'Create Project' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Draft project');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  // A new project opens on its uploads; back to the list to rename it.
  await expect(page).toHaveURL(/\/project\/[^/]+\/uploads$/);
  await page.getByRole('link', { name: 'Projects' }).click();
  await rowAction(page, 'Rename', 'Draft project');
  await page.getByRole('dialog').getByLabel('Name').fill('Sensors');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('cell', { name: 'Sensors', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Open Sensors' }).click();
  await expect(page).toHaveURL(/\/project\/[^/]+\/create-shrink-run$/);

  // Uploads: the drop zone's checks, then a real .json file to Ready.
  await page.getByRole('link', { name: 'Uploads' }).click();
  await expect(page.getByText(MESSAGES.noUploads)).toBeVisible();
  await visit(page, 'uploads');
  await chooseFile(page, 'notes.exe', 'application/octet-stream', 'x', 'Choose files to upload');
  await expect(mainAlert(page, 'Invalid file type. Allowed: .json')).toBeVisible();
  await chooseFile(page, 'big.json', 'application/json', Buffer.alloc(1024 * 1024 + 1, 32), 'Choose files to upload');
  await expect(mainAlert(page, MESSAGES.fileTooLarge)).toBeVisible();
  await chooseFile(page, 'sensors.json', 'application/json', fitJson(), 'Choose files to upload');
  await expect(notice(page, MESSAGES.uploadSucceeded('sensors.json'))).toBeVisible();
  const row = page.getByRole('row', { name: /sensors\.json/ });
  await expect(row.getByRole('cell', { name: 'Ready', exact: true })).toBeVisible({ timeout: 60_000 });
  await shot(page, 'uploads-ready');

  // A fit request: the plan's messages, then run to completion and download the results.
  await page.getByRole('link', { name: 'Requests' }).click();
  await expect(page.getByText(MESSAGES.noRequests)).toBeVisible();
  await visit(page, 'runs');
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(page).toHaveURL(/\/create-fit-run$/);
  await visit(page, 'create-fit-run');
  await expect(page.getByRole('checkbox', { name: 'Explainability' })).toBeDisabled();
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(page.getByText(MESSAGES.titleCreate)).toBeVisible();
  await expect(page.getByText(MESSAGES.selectUpload)).toBeVisible();
  await expect(page.getByText(MESSAGES.fillAllFields).first()).toBeVisible();
  await page.getByLabel(/^Request name/).fill('First embedding');
  await page.getByLabel(/^Input column size/).fill('4');
  await expect(page.getByText(MESSAGES.planLimitInputs('Individual', 3))).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upgrade' }).first()).toHaveAttribute('href', '/contact.html');
  await page.getByLabel(/^Input column size/).fill('3');
  await page.getByLabel(/^Output column size/).fill('2');
  await page.getByRole('combobox', { name: 'Upload' }).click();
  await page.getByRole('option', { name: 'sensors.json' }).click();
  await page.getByRole('button', { name: 'Create Request' }).click();
  // The request lands on its fit (the training, with its score); its embeddings are one click away.
  await expect(page).toHaveURL(/\/run\/[^/]+\/details$/);
  await expect(page.getByRole('status', { name: 'Request state' })).toHaveText('Finished', { timeout: 90_000 });
  await page.getByRole('link', { name: 'First embedding (embeddings)' }).first().click();
  await expect(page.getByRole('status', { name: 'Request state' })).toHaveText('Finished', { timeout: 90_000 });
  await visit(page, 'run-details');
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Results' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^ensemble_result_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.json$/);
  const saved = await download.path();
  const { readFileSync } = await import('node:fs');
  expect(() => JSON.parse(readFileSync(saved, 'utf8'))).not.toThrow();

  // Runs list: rename a request; models list shows the trained model.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }).click();
  await expect(page.getByRole('cell', { name: requestFunctionLabel('generate'), exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: requestFunctionLabel('fit'), exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Models' }).click();
  await expect(page.getByRole('heading', { name: 'Your models' })).toBeVisible();
  await visit(page, 'models');

  // A shrink quote: upload a .py model, pick it, see the estimate and billing, create the quote.
  await page.getByRole('link', { name: 'Requests' }).click();
  await page.getByRole('button', { name: 'Create Shrink Request' }).click();
  await visit(page, 'create-shrink-run');
  await page.getByRole('button', { name: 'Upload a new model file' }).click();
  await visit(page, 'create-shrink-run-upload');
  const model = [
    'import torch.nn as nn',
    '',
    'model = nn.Sequential(',
    '    nn.Linear(128, 64),',
    '    nn.ReLU(),',
    '    nn.Linear(64, 8),',
    ')',
    '',
  ].join('\n');
  await chooseFile(page, 'model.py', 'text/x-python', model);
  await expect(notice(page, MESSAGES.uploadSucceeded('model.py'))).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create Shrink Request' })).toBeVisible();
  await page.getByRole('button', { name: 'Pick an existing upload' }).click();
  await expect(page.getByRole('heading', { name: 'Pick an upload' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Select model.py' }))
    .toBeVisible({ timeout: 60_000 })
    .catch(async () => {
      await page.getByRole('button', { name: 'Reload' }).click();
      await expect(page.getByRole('button', { name: 'Select model.py' })).toBeVisible({ timeout: 60_000 });
    });
  await visit(page, 'create-shrink-run-pick');
  await page.getByRole('button', { name: 'Select model.py' }).click();
  await expect(page.getByText(/^Free credits: /)).toBeVisible();
  await expect(page.getByText(/^Outstanding balance: \$\d+\.\d{2}$/)).toBeVisible();
  await page.getByLabel(/^Request name/).fill('Smaller model');
  await page.getByLabel('Description').fill('Shrink the sensor model');
  // Before anything is billed: estimate - free credit = amount due, then a question to confirm (Back creates nothing).
  await expect(page.getByTestId('shrink-price')).toHaveText(/^Estimate \$\d+\.\d{2} - free credit \$\d+\.\d{2} = amount due \$\d+\.\d{2}$/);
  await page.getByRole('button', { name: 'Create Quote' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm the price' });
  await expect(confirm).toContainText(/Estimate \$\d+\.\d{2} - free credit/);
  await expect(confirm).toContainText(/Create this (quote|request)\?/);
  await confirm.getByRole('button', { name: 'Back' }).click();
  await expect(confirm).toBeHidden();
  await expect(page).toHaveURL(/\/create-shrink-run$/);
  await page.getByRole('button', { name: 'Create Quote' }).click();
  await page.getByRole('dialog', { name: 'Confirm the price' }).getByRole('button', { name: 'Create Quote' }).click();
  await expect(page).toHaveURL(/\/quote\/[^/]+\/details$/);
  await expect(page.getByText('Invoice amount')).toBeVisible();
  await expect(page.getByText(/^\$\d+\.\d{2}$/).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Payment portal', exact: true })).toBeVisible();
  await visit(page, 'quote-details');

  // Requests list: the shrink request opens its quote; rename and remove a request.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }).click();
  await rowAction(page, 'Rename', 'Smaller model');
  await page.getByRole('dialog').getByLabel('Name').fill('Compressed model');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('cell', { name: 'Compressed model', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Open Compressed model' }).click();
  await expect(page).toHaveURL(/\/quote\/[^/]+\/details$/);
  await page.goBack();
  await rowAction(page, 'Remove', 'Compressed model');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('cell', { name: 'Compressed model', exact: true })).toHaveCount(0);

  // Logout clears the token and goes to the root.
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('portal.token'))).toBeNull();
  // A deliberate logout: a signed-in page reached afterwards goes to the root without a 'Token missing' notice.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await expect(notice(page, MESSAGES.tokenMissing)).toHaveCount(0);
});
