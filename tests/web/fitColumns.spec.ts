// The fit form at 1280x800: a model that needs an integration key cannot be picked without one.
import { test, expect } from '@playwright/test';
import { OPENAI_TEXT_MODEL_ID, TEXT_EMBEDDING_MESSAGES } from '@portal/core';
import { createProject, createUser, loginToken } from './helpers';

test.use({ viewport: { width: 1280, height: 800 } });

test('a general model that needs an integration key cannot be picked without one, and the form links to Integrations', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'fitkey');
  const bucket = await createProject(request, user, 'Texts');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${bucket}/create-fit-run`);
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
