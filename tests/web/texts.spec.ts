// The browser puts an OpenAI key to work: a key made on Integrations, a list of strings uploaded from the request
// form, a request with the OpenAI text embeddings general model, its events, and the key's runs and last ran. The
// server under test sends its text-embedding calls to a stub of OpenAI's embeddings endpoint (playwright.config.ts).
import { test, expect } from '@playwright/test';
import { MESSAGES, TEXT_EMBEDDING_MESSAGES } from '@portal/core';
import { startOpenAiStub, STUB_OPENAI_KEY, type OpenAiStub } from '@portal/testkit/openai';
import { chooseFile, createProject, createUser, loginToken, notice, rowAction } from './helpers';

let stub: OpenAiStub;
test.beforeAll(async () => {
  stub = await startOpenAiStub(Number(process.env.PORTAL_E2E_OPENAI_PORT));
});
test.afterAll(() => stub?.close());

test('embed texts with the OpenAI key made on Integrations; the key shows its runs and last ran', async ({ page, request }) => {
  const user = await createUser(request, 'texts');
  const project = await createProject(request, user, 'Texts');
  await loginToken(page, user);

  await page.goto(`/client/${user.clientId}/create-integration`);
  await page.getByRole('main').getByLabel(/^Name/).fill('Production key');
  await page
    .getByRole('main')
    .getByLabel(/^Token/)
    .fill(STUB_OPENAI_KEY);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/integrations$/);
  const row = page.getByRole('row').filter({ hasText: 'Production key' });
  await expect(row).toBeVisible();

  await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
  await chooseFile(page, 'texts.json', 'application/json', JSON.stringify(['first text', 'second text']));
  await expect(notice(page, MESSAGES.uploadSucceeded('texts.json'))).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Upload' })).toHaveText(/texts\.json/, { timeout: 60_000 });
  await page.getByRole('radio', { name: 'Reuse a trained model' }).check();
  await page.getByLabel(/^Request name/).fill('Texts');
  await page.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option', { name: 'OpenAI text embeddings', exact: true }).click();
  // The model takes a width: checked by core's rule on the form, then sent.
  await page.getByLabel(/^Dimensions/).fill('5000');
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(page.getByText(TEXT_EMBEDDING_MESSAGES.dimensions)).toBeVisible();
  await page.getByLabel(/^Dimensions/).fill('8');
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(page).toHaveURL(/\/run\/[^/]+\/details$/);
  await expect(page.getByRole('button', { name: 'Download Results' })).toBeEnabled({ timeout: 60_000 });
  await expect(
    page.getByText("Sending 2 texts to OpenAI text-embedding-3-small (8 dimensions) with the key 'Production key' in 1 call."),
  ).toBeVisible();
  expect(stub.calls.map((c) => [c.authorization, c.texts, c.dimensions])).toEqual([
    [`Bearer ${STUB_OPENAI_KEY}`, ['first text', 'second text'], 8],
  ]);

  // The key's counters: one run, and a last ran time.
  await page.goto(`/client/${user.clientId}/integrations`);
  const cells = row.getByRole('cell');
  await expect(row).toBeVisible();
  const shown = (await cells.allInnerTexts()).map((t) => t.trim());
  // Runs, then Last ran: an exact or a relative time.
  expect(shown[shown.indexOf('1') + 1]).toMatch(/\d{4}|just now|ago/);

  // Removed, the key no longer does the work: the next request says to add one.
  await rowAction(page, 'Remove', 'Production key');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(MESSAGES.integrationNotFound)).toBeVisible();
  await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
  await page.getByRole('radio', { name: 'Reuse a trained model' }).check();
  await page.getByLabel(/^Request name/).fill('No key');
  // Without a key the model cannot be picked: the form says so and links to Integrations.
  await expect(page.getByText(TEXT_EMBEDDING_MESSAGES.noKey).first()).toBeVisible();
  await page.getByRole('combobox', { name: 'Model' }).click();
  await expect(page.getByRole('option', { name: /OpenAI text embeddings/ })).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Open Integrations' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/client/${user.clientId}/integrations$`));
});
