// The portal at 360 px wide: the sidebar collapses behind a menu button, pages stay usable; axe and screenshots.
import { test, expect } from '@playwright/test';
import {
  checkA11y,
  createApiKey,
  createProject,
  createUser,
  fitJson,
  fitThroughApi,
  loginToken,
  MODEL_PY,
  shot,
  shrinkThroughApi,
  uploadFile,
} from './helpers';

test.use({ viewport: { width: 360, height: 740 } });

test('every kind of screen at 360 px: menu button navigation, no sideways scrolling, axe', async ({ page, request }) => {
  const user = await createUser(request, 'mobile');
  const project = await createProject(request, user, 'Phone project');
  const upload = await uploadFile(request, user, project, 'phone.json', fitJson(30));
  const run = await fitThroughApi(request, user, project, upload, 'Phone request');
  const py = await uploadFile(request, user, project, 'phone-model.py', MODEL_PY);
  const quote = await shrinkThroughApi(request, user, project, py, 'Phone quote');
  const key = await createApiKey(request, user, 'Phone key');

  await page.goto('/');
  await checkA11y(page, 'login (360)');
  await shot(page, 'mobile-login');
  const publicRoutes: Array<[string, string]> = [
    ['signup', '/signup'],
    ['forgot-password', '/forgot-password'],
    ['reset-password', '/reset-password?token=t'],
    ['invite', '/invite?token=t'],
    ['email-confirm', '/account/email/confirm?token=t'],
  ];
  for (const [name, path] of publicRoutes) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkA11y(page, `${name} (360)`);
    await shot(page, `mobile-${name}`);
  }

  await loginToken(page, user);
  await page.goto('/account');
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compare Plans' }).click();
  await expect(page).toHaveURL(/\/plan$/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  const c = user.clientId;
  const p = `/client/${c}/project/${project}`;
  const routes: Array<[string, string]> = [
    ['account', '/account'],
    ['plan', '/plan'],
    ['projects', `/client/${c}/projects`],
    ['apikeys', `/client/${c}/apikeys`],
    ['apikey-info', `/client/${c}/apikey/${key.clue}/info`],
    ['integrations', `/client/${c}/integrations`],
    ['create-integration', `/client/${c}/create-integration`],
    ['members', `/client/${c}/members`],
    ['audit', `/client/${c}/audit`],
    ['runs', `${p}/runs`],
    ['uploads', `${p}/uploads`],
    ['models', `${p}/models`],
    ['create-fit-run', `${p}/create-fit-run`],
    ['create-shrink-run', `${p}/create-shrink-run`],
    ['create-shrink-run-pick', `${p}/create-shrink-run?view=pick`],
    ['create-shrink-run-upload', `${p}/create-shrink-run?view=upload`],
    ['run-details', `${p}/run/${run}/details`],
    ['quote-details', `${p}/quote/${quote}/details`],
  ];
  for (const [name, path] of routes) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(1);
    await checkA11y(page, `${name} (360)`);
    await shot(page, `mobile-${name}`);
  }
});
