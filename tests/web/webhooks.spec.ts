// Webhooks in the browser, against a receiver this test runs: an owner adds an endpoint (events from checkboxes), copies
// its secret shown once, sends a test event the Standard Webhooks library verifies (retried after a 500), reads the
// delivery log with each attempt, redelivers, pauses, rotates, renames and removes it; the page fits at 1280x800 and
// on a phone, light and dark, with a 60-character name; a member reads why they cannot manage webhooks.
import { test, expect, type APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { closeReceivers, webhookReceiver } from '../receiver';
import { WEBHOOK_MESSAGES } from '@portal/core';
import {
  auth,
  checkA11y,
  createUser,
  firstCardList,
  inEveryLook,
  loginToken,
  mailedLink,
  notice,
  PASSWORD,
  shot,
  sidewaysScroll,
  unique,
  type TestUser,
} from './helpers';

const sixty = (start: string) => `${start} ${'x'.repeat(60)}`.slice(0, 60);

test.afterAll(() => {
  closeReceivers();
});

/** An endpoint made through the API, and a test event sent to it. */
async function seedEndpoint(request: APIRequestContext, user: TestUser, url: string, name: string) {
  const made = await request.put('/api/client/webhook/item', {
    headers: auth(user),
    data: { client: user.clientId, url, events: ['run.finished', 'upload.ready'], name },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const { webhook } = await made.json();
  expect((await request.post('/api/client/webhook/test', { headers: auth(user), data: { webhook: webhook.stamp } })).ok()).toBe(true);
  return webhook.stamp as string;
}

test('an owner adds an endpoint, copies its secret once, tests it, reads its log, redelivers, pauses, rotates, renames and removes it', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = await createUser(request, 'hooks');
  const r = await webhookReceiver([500]);
  const name = sixty('Billing service that wants to know when requests end');
  await loginToken(page, owner);
  await page.goto(`/client/${owner.clientId}/webhooks`);
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Webhooks' })).toBeVisible();
  await expect(page.getByText(WEBHOOK_MESSAGES.noEndpoints)).toBeVisible();

  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
  await dialog.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByText(WEBHOOK_MESSAGES.url)).toBeVisible();
  await expect(dialog.getByText(WEBHOOK_MESSAGES.events)).toBeVisible();
  await dialog.getByLabel('Endpoint URL').fill(r.url);
  await dialog.getByLabel('Name (optional)').fill(name);
  await dialog.getByRole('checkbox', { name: /run\.finished/ }).check();
  await dialog.getByRole('checkbox', { name: /run\.failed/ }).check();
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog).toBeHidden();

  // The secret, once: copied, then gone for good.
  const panel = page.getByRole('region', { name: 'Signing secret' });
  await expect(panel).toContainText(WEBHOOK_MESSAGES.secretOnce);
  const secret = (await panel.locator('[data-secret]').textContent())!;
  expect(secret).toMatch(/^whsec_/);
  await panel.getByRole('button', { name: 'Copy signing secret' }).click();
  await expect(panel.getByRole('button', { name: 'Signing secret copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const table = page.getByRole('table', { name: 'Webhook endpoints' });
  await expect(table.getByRole('row').filter({ hasText: name })).toContainText('Active');
  await expect(table.getByRole('row').filter({ hasText: name })).toContainText('Never');
  await checkA11y(page, 'webhooks');
  await shot(page, 'webhooks-secret');
  await panel.getByRole('button', { name: 'Done' }).click();
  await expect(panel).toBeHidden();
  await page.reload();
  await expect(table.getByText(name)).toBeVisible();
  await expect(page.getByText(/whsec_/)).toHaveCount(0);

  // A test event: the first attempt meets a 500, the retry a 200; both verify with the endpoint's secret.
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Send test event' }).click();
  await expect(notice(page, WEBHOOK_MESSAGES.testSent)).toBeVisible();
  await expect.poll(() => r.got.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const id = r.got[0].headers['webhook-id'];
  for (const attempt of r.got) {
    expect(attempt.headers['webhook-id']).toBe(id);
    expect((new Webhook(secret).verify(attempt.body, attempt.headers as Record<string, string>) as { type: string }).type).toBe(
      'webhook.test',
    );
  }

  await page.getByRole('button', { name: `Deliveries of ${name}` }).click();
  await expect(page).toHaveURL(/[?&]endpoint=/);
  const log = page.getByRole('table', { name: `Deliveries of ${name}` });
  await expect(log.getByRole('row').filter({ hasText: 'webhook.test' })).toContainText('Delivered (HTTP 200)', { timeout: 30_000 });
  await page.getByRole('button', { name: `Details of the webhook.test delivery ${id}` }).click();
  const details = page.getByRole('dialog', { name: /Delivery of webhook\.test/ });
  const attempts = details.getByRole('table', { name: 'Attempts' });
  await expect(attempts.getByRole('row').nth(1)).toContainText('HTTP 500');
  await expect(attempts.getByRole('row').nth(1)).toContainText('answer 500');
  await expect(attempts.getByRole('row').nth(2)).toContainText('HTTP 200');
  await expect(attempts.getByRole('row').nth(2)).toContainText(/\d+ ms|\d\.\d s/);
  await checkA11y(page, 'webhook delivery');
  await shot(page, 'webhooks-delivery');
  await details.getByRole('button', { name: 'Redeliver' }).click();
  await expect(notice(page, WEBHOOK_MESSAGES.redelivered)).toBeVisible();
  await expect.poll(() => r.got.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  expect(r.got[2].headers['webhook-id']).toBe(id);
  await details.getByRole('button', { name: 'Close' }).click();

  const row = table.getByRole('row').filter({ hasText: name });
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Pause' }).click();
  await expect(row).toContainText('Paused');
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Resume' }).click();
  await expect(row).toContainText('Active');

  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Rotate secret' }).click();
  await expect(notice(page, WEBHOOK_MESSAGES.rotated)).toBeVisible();
  await expect(panel).toContainText('New signing secret');
  const rotated = (await panel.locator('[data-secret]').textContent())!;
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);

  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename endpoint' });
  await rename.getByLabel('Name').fill('Billing service');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(notice(page, 'Endpoint renamed to "Billing service".')).toBeVisible();

  await page.getByRole('button', { name: 'More actions for Billing service' }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove endpoint' });
  await expect(confirm).toContainText(WEBHOOK_MESSAGES.confirmRemove(r.url));
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(notice(page, WEBHOOK_MESSAGES.removed)).toBeVisible();
  await expect(page.getByText(WEBHOOK_MESSAGES.noEndpoints)).toBeVisible();
});

inEveryLook(({ width, scheme }) => {
  test(`the endpoints and a delivery log fit with a 60-character name (${width} px, ${scheme})`, async ({ page, request }) => {
    const owner = await createUser(request, 'hookfit');
    const r = await webhookReceiver();
    const name = sixty('Endpoint of the nightly export to the data warehouse');
    const endpoint = await seedEndpoint(request, owner, `${r.url}/a/long/path/for/the/nightly/export?source=portal`, name);
    await loginToken(page, owner);
    await page.goto(`/client/${owner.clientId}/webhooks?endpoint=${endpoint}`);
    await expect(page.getByRole('heading', { name: `Deliveries of ${name}` })).toBeVisible();
    await expect(page.getByText('Delivered (HTTP 200)').first()).toBeVisible({ timeout: 30_000 });
    if (width >= 1280) {
      for (const region of await page.locator('[role="region"][aria-label$=" table"]').all()) {
        const label = await region.getAttribute('aria-label');
        expect.soft(await region.evaluate((el) => el.scrollWidth - el.clientWidth), `${label} scrolls sideways`).toBeLessThanOrEqual(0);
      }
    } else {
      await expect(firstCardList(page)).toBeVisible();
    }
    expect(await sidewaysScroll(page), 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await checkA11y(page, `webhooks ${width} ${scheme}`);
    await shot(page, `webhooks-${width}-${scheme}`);
  });
});

test("a member reads why they cannot manage the client's webhooks", async ({ page, request }) => {
  const owner = await createUser(request, 'hookown');
  const email = `${unique('hookmember')}@example.com`;
  const member = await request.post('/api/user/signup', { data: { email, username: unique('hm'), password: PASSWORD, name: 'Member Co' } });
  expect(member.ok(), await member.text()).toBe(true);
  expect((await request.put('/api/client/member/invite', { headers: auth(owner), data: { client: owner.clientId, email } })).ok()).toBe(
    true,
  );
  const token = new URL(await mailedLink(email, /\/invite\?token=[^\s]+/), 'http://x').searchParams.get('token');
  const joined = await member.json();
  expect((await request.post('/api/client/member/accept', { headers: auth(joined), data: { token } })).ok()).toBe(true);
  await loginToken(page, joined);
  await page.goto(`/client/${owner.clientId}/webhooks`);
  await expect(page.getByRole('status').filter({ hasText: WEBHOOK_MESSAGES.ownersOnly })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
});
