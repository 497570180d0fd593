// Pages that answer questions, at 1280x800, on a 390 px phone and in dark mode: unknown ids say so (with a working
// breadcrumb, never an endless placeholder), a quote paid elsewhere shows Paid and drops its payment button, the audit
// log filters by member, action and dates (kept in the URL) and exports CSV, and usage splits by project and exports CSV.
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MESSAGES } from '@portal/core';
import {
  auth,
  checkA11y,
  createProject,
  createUser,
  DATABASE_URL,
  focusUntil,
  loginToken,
  MODEL_PY,
  PASSWORD,
  shot,
  shrinkThroughApi,
  uploadFile,
  inEveryLook,
} from './helpers';

inEveryLook(({ width, scheme }) => {
  test('unknown ids show a not-found page with a breadcrumb and the way back', async ({ page, request }) => {
    const user = await createUser(request, `gone${width}${scheme}`);
    const project = await createProject(request, user, 'Known');
    await loginToken(page, user);
    const c = `/client/${user.clientId}`;
    for (const [path, title, back] of [
      [`${c}/project/${project}/run/r_nosuchrun/details`, MESSAGES.requestNotFound, 'Back to requests'],
      [`${c}/project/${project}/quote/q_nosuchquote/details`, MESSAGES.requestNotFound, 'Back to requests'],
      [`${c}/project/b_nosuchproject/uploads`, MESSAGES.projectNotFound, 'Back to projects'],
      [`${c}/project/b_nosuchproject/runs`, MESSAGES.projectNotFound, 'Back to projects'],
      [`${c}/project/b_nosuchproject/create-fit-run`, MESSAGES.projectNotFound, 'Back to projects'],
      [`${c}/project/b_nosuchproject/create-shrink-run`, MESSAGES.projectNotFound, 'Back to projects'],
      [`${c}/apikey/k_nosuchkey/info`, MESSAGES.apiKeyNotFound, 'Back to API keys'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
      await expect(crumbs.getByRole('link', { name: 'My Account' })).toBeVisible();
      await expect(page.locator('.MuiSkeleton-root')).toHaveCount(0);
      await checkA11y(page, `${title} at ${path} (${width}, ${scheme})`);
      await page.getByRole('link', { name: back }).click();
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(title);
    }
  });
});

/** A statement on the run's own PostgreSQL database (see playwright.config.ts). */
function sql(statement: string) {
  execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qc', statement], { stdio: 'pipe', timeout: 10_000 });
}

test.describe('quotes, audit and usage', () => {
  for (const [width, height, scheme] of [
    [1280, 800, 'light'],
    [390, 844, 'dark'],
  ] as const) {
    test(`a quote paid in another tab shows Paid and offers no payment button (${width}, ${scheme})`, async ({ page, request }) => {
      test.skip(!DATABASE_URL, "needs the run's own PostgreSQL database");
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      const user = await createUser(request, `paid${width}`);
      const project = await createProject(request, user, 'Billing');
      const py = await uploadFile(request, user, project, 'model.py', MODEL_PY);
      const quote = await shrinkThroughApi(request, user, project, py, 'To pay');
      // This account's free credits pay small quotes at once: the quote is made Unpaid in the server's database (as a
      // large one would be), then paid there, as the payment portal does from another tab.
      sql(`update quotes set state = 'Unpaid', cent = 22 where stamp = '${quote}'`);
      await loginToken(page, user);
      await page.goto(`/client/${user.clientId}/project/${project}/quote/${quote}/details`);
      const pay = page.getByRole('link', { name: 'Open payment portal' });
      await expect(pay).toBeVisible();
      await expect(page.getByText('Unpaid', { exact: true })).toBeVisible();
      sql(`update quotes set state = 'Paid' where stamp = '${quote}'`);
      await focusUntil(page, async () => (await page.getByText('Paid', { exact: true }).count()) > 0);
      await expect(pay).toHaveCount(0);
      await checkA11y(page, `paid quote (${width}, ${scheme})`);
    });
  }

  test('the audit log filters by member, action and dates, keeps them in the URL, and exports CSV', async ({ page, request }) => {
    const user = await createUser(request, 'auditf');
    // Two sign-ins (the member's own events, never lines of the log), two API keys and an invitation: lines of two actions.
    for (let i = 0; i < 2; i++) {
      const basic = Buffer.from(`${user.email}:${PASSWORD}`).toString('base64');
      expect((await request.post('/api/user/login', { headers: { authorization: `Basic ${basic}` } })).status()).toBe(200);
      const key = await request.put('/api/client/apikey/item', { headers: auth(user), data: { client: user.clientId, name: `Key ${i}` } });
      expect(key.status(), await key.text()).toBeLessThan(300);
    }
    const invited = await request.put('/api/client/member/invite', {
      headers: auth(user),
      data: { client: user.clientId, email: `friend-${user.username}@example.com`, role: 'member' },
    });
    expect(invited.status(), await invited.text()).toBeLessThan(300);
    await loginToken(page, user);
    await page.goto(`/client/${user.clientId}/audit`);
    const table = page.getByRole('table', { name: 'Audit log' });
    await expect(table.getByRole('row', { name: /Invited a member/ })).toBeVisible();
    await expect(table.getByRole('row', { name: /Signed in/ })).toHaveCount(0);
    await expect(page.getByLabel('Action').getByRole('option', { name: 'Signed in' })).toHaveCount(0);
    await page.getByLabel('Action').selectOption({ label: 'Created an API key' });
    await expect(page).toHaveURL(/[?&]action=apikey\.create/);
    await expect(table.getByRole('row', { name: /Invited a member/ })).toHaveCount(0);
    await expect(table.getByRole('row', { name: /Created an API key/ })).toHaveCount(2);
    await page.getByLabel('Member').selectOption(user.email);
    await expect(page).toHaveURL(/[?&]actor=/);
    await page.reload();
    await expect(page.getByLabel('Action')).toHaveValue('apikey.create');
    await expect(page.getByLabel('Member')).toHaveValue(user.email);
    const rows = await table.getByRole('row').count();
    expect(rows).toBeGreaterThanOrEqual(3);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit_\d{4}-\d\d-\d\d\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('time_utc,actor,action,action_label,target,detail');
    expect(csv.length - 1).toBe(rows - 1);
    expect(csv.slice(1).every((l) => l.includes(',apikey.create,Created an API key,'))).toBe(true);
    // A day after today: nothing yet.
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await page.getByLabel('From').fill(day);
    await expect(page).toHaveURL(new RegExp(`[?&]from=${day}`));
    await expect(table).toHaveCount(0);
    await checkA11y(page, 'audit filters');
    await shot(page, 'answers-audit-filters');
  });

  test('usage splits by project, narrows to one, and exports CSV', async ({ page, request }) => {
    const user = await createUser(request, 'usagep');
    const a = await createProject(request, user, 'Alpha');
    const b = await createProject(request, user, 'Beta');
    const pyA = await uploadFile(request, user, a, 'model.py', MODEL_PY);
    const pyB = await uploadFile(request, user, b, 'model.py', MODEL_PY);
    await shrinkThroughApi(request, user, a, pyA, 'Alpha quote');
    await shrinkThroughApi(request, user, a, pyA, 'Alpha quote 2');
    await shrinkThroughApi(request, user, b, pyB, 'Beta quote');
    await loginToken(page, user);
    await page.goto(`/client/${user.clientId}/usage`);
    const split = page.getByRole('table', { name: 'Usage by project' });
    await expect(split.getByRole('row', { name: /Alpha/ })).toContainText('2');
    await expect(split.getByRole('row', { name: /Beta/ })).toContainText('1');
    await expect(page.getByLabel('Totals')).toHaveText(/^Last 30 days \(UTC\): 3 requests/);
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Beta' });
    await expect(page.getByLabel('Totals')).toHaveText(/^Beta, last 30 days \(UTC\): 1 requests/);
    await expect(page).toHaveURL(new RegExp(`[?&]project=${b}`));
    await page.reload();
    await expect(page.getByLabel('Totals')).toHaveText(/^Beta, last 30 days/);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export projects (CSV)' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('project,project_id,fits,generates,shrinks,input_parameters,amount_usd');
    expect(csv.find((l) => l.startsWith('Alpha,'))).toContain(`,${a},0,0,2,`);
    await checkA11y(page, 'usage by project');
  });
});
