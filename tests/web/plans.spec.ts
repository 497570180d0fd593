// Plan and choice set by the operator (admin CLI): upgrade button, plan badge, fit limits and explainability, Open target.
import { test, expect } from '@playwright/test';
import { MESSAGES } from '@portal/core';
import { admin, createProject, createUser, DATABASE_URL, loginToken } from './helpers';

test.beforeEach(() => test.skip(!DATABASE_URL, 'the admin CLI needs the run to use PostgreSQL (the server holds the embedded database)'));

test('Individual shows the upgrade button; Enterprise hides it, enables explainability and shows its limit message', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'plan');
  const project = await createProject(request, user, 'Limits');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/projects`);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/contact.html');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/contact.html');
  await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
  await page.getByLabel(/^Output column size/).fill('6');
  await page.getByLabel(/^Task target size/).fill('2');
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(page.getByText(MESSAGES.planLimitOutputs('Individual', 5))).toBeVisible();
  await expect(page.getByText(MESSAGES.planLimitTarget('Individual', 1))).toBeVisible();

  admin('set-plan', user.clientId, 'Enterprise');
  await page.goto('/plan');
  const header = page.getByRole('columnheader', { name: /Enterprise/ });
  await expect(header.getByText('Current plan')).toBeVisible();
  await expect(page.getByRole('link', { name: /Upgrade/ })).toHaveCount(0);
  await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
  await expect(page.getByRole('checkbox', { name: 'Explainability' })).toBeEnabled();
  await page.getByLabel(/^Input column size/).fill('501');
  await page.getByRole('button', { name: 'Create Request' }).click();
  await expect(page.getByText(MESSAGES.enterpriseLimit(500))).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Upgrade' })).toHaveCount(0);
});

test('a Premise client opens on its API keys and has no Projects in the sidebar', async ({ page, request }) => {
  const user = await createUser(request, 'premise');
  admin('set-choice', user.clientId, 'Premise');
  await loginToken(page, user);
  await page.goto('/account');
  await page.getByRole('button', { name: /^Open / }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${user.clientId}/apikeys$`));
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'API Keys' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Projects' })).toHaveCount(0);
  admin('set-choice', user.clientId, 'CloudPremise');
  await page.reload();
  await expect(nav.getByRole('link', { name: 'Projects' })).toBeVisible();
});
