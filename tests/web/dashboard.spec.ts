// The portal next to the dashboards people know, at 1280x800, on a 390 px phone and in dark mode: every column in
// view with 60-character names, list state in the URL, lists that refresh when the tab comes back, relative times
// with the exact time on hover, a remembered dark mode, Ctrl+K search and shortcuts, and removing many rows with one
// Undo; axe stays at 0 serious in light and dark.
import { test, expect, type Page } from '@playwright/test';
import {
  auth,
  checkA11y,
  createProject,
  createUser,
  focusUntil,
  loginToken,
  notice,
  shot,
  sidewaysScroll,
  type TestUser,
  inEveryLook,
} from './helpers';

const LONG = 'A project name that is exactly sixty characters long, ok!!!!'.slice(0, 60);

async function projectsOf(page: Page, user: TestUser) {
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/projects`);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
}

inEveryLook(({ width, height, scheme }) => {
  test('every column in view with 60-character names; phones get cards with no sideways scroll', async ({ page, request }) => {
    const user = await createUser(request, `cols${width}${scheme}`);
    for (let i = 0; i < 3; i++) await createProject(request, user, `${LONG.slice(0, 58)}${i}${i}`);
    await projectsOf(page, user);
    await expect(page.getByText(`${LONG.slice(0, 58)}00`)).toBeVisible();
    if (width >= 1280) {
      const table = page.getByRole('region', { name: 'Projects table' });
      const overflow = await table.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const edge = (await table.boundingBox())!;
      for (const header of ['Name', 'ID', 'Transformations', 'Uploads', 'Created', 'Actions']) {
        const h = (await page.getByRole('columnheader', { name: header }).boundingBox())!;
        expect(h.x + h.width, header).toBeLessThanOrEqual(edge.x + edge.width + 1);
      }
    } else {
      await expect(page.getByRole('list', { name: 'Projects' }).getByRole('listitem')).toHaveCount(3);
    }
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    // The actions sit in a compact menu; the whole name shows on hover.
    await page.getByRole('button', { name: `More actions for ${LONG.slice(0, 58)}00` }).click();
    await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
    await page.keyboard.press('Escape');
    await checkA11y(page, `projects (${width}, ${scheme})`);
    await shot(page, `dashboard-projects-${width}-${scheme}`);
  });

  test('filter, sort and page live in the URL: reload and Back restore them', async ({ page, request }) => {
    const user = await createUser(request, `url${width}${scheme}`);
    for (let i = 0; i < 30; i++) await createProject(request, user, `Field ${String(i).padStart(2, '0')}`);
    await createProject(request, user, 'Orchard');
    await projectsOf(page, user);
    await expect(page.getByText('1-25 of 31')).toBeVisible();
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(page.getByText('26-31 of 31')).toBeVisible();
    await page.reload();
    await expect(page.getByText('26-31 of 31')).toBeVisible();
    await page.goBack();
    await expect(page.getByText('1-25 of 31')).toBeVisible();
    await page.getByLabel('Filter projects').fill('orch');
    await expect(page).toHaveURL(/[?&]q=orch/);
    await page.reload();
    await expect(page.getByLabel('Filter projects')).toHaveValue('orch');
    await expect(page.getByText('Orchard')).toBeVisible();
    await expect(page.getByText('Field 00')).toHaveCount(0);
    if (width >= 1280) {
      await page.getByLabel('Filter projects').fill('');
      await page.getByRole('button', { name: 'Name' }).click();
      await expect(page).toHaveURL(/[?&]sort=name/);
      await page.reload();
      await expect(page.getByRole('row').nth(1)).toContainText('Field 00');
    }
  });

  test('a list reads again when the tab regains focus, and times show as relative with the exact time on hover', async ({
    page,
    request,
  }) => {
    const user = await createUser(request, `focus${width}${scheme}`);
    const project = await createProject(request, user, 'Before');
    await projectsOf(page, user);
    const time = page.locator('time[datetime]').first();
    await expect(time).toHaveText(/just now|min ago/);
    expect(await time.getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await time.hover();
    await expect(page.getByRole('tooltip')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+/);
    // Renamed in another tab (here, through the API): the list shows it once the window is focused again.
    await request.post('/api/bucket/name', { headers: auth(user), data: { bucket: project, name: 'After' } });
    await focusUntil(page, async () => (await page.getByText('After', { exact: true }).count()) > 0);
    await expect(page.getByRole('status', { name: /Loading/ })).toHaveCount(0);
  });

  test('several rows removed together, with one Undo for all', async ({ page, request }) => {
    const user = await createUser(request, `many${width}${scheme}`);
    for (const n of ['Alder', 'Birch', 'Cedar', 'Damson']) await createProject(request, user, n);
    await projectsOf(page, user);
    await page.getByRole('checkbox', { name: 'Select Alder' }).click();
    await page.getByRole('checkbox', { name: 'Select Cedar' }).click({ modifiers: ['Shift'] });
    const picked = await page.getByRole('checkbox', { checked: true, name: /^Select [A-Z][a-z]+$/ }).count();
    expect(picked).toBeGreaterThanOrEqual(2);
    await expect(page.getByText(`${picked} selected`)).toBeVisible();
    await page.getByRole('button', { name: 'Remove selected' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(notice(page, `${picked} projects removed.`)).toBeVisible();
    await expect(page.getByText('Alder', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(notice(page, `${picked} projects restored.`)).toBeVisible();
    await expect(page.getByText('Alder', { exact: true })).toBeVisible();
    await expect(page.getByText('Cedar', { exact: true })).toBeVisible();
  });

  test('Ctrl+K finds a project and Enter opens it; ? lists the shortcuts; g p goes to projects', async ({ page, request }) => {
    const user = await createUser(request, `jump${width}${scheme}`);
    const project = await createProject(request, user, 'Greenhouse sensors');
    await projectsOf(page, user);
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: /Search projects/ });
    await expect(box).toBeFocused();
    await box.fill('greenh');
    await expect(page.getByRole('option', { name: /Greenhouse sensors/ })).toBeVisible();
    await checkA11y(page, `quick search (${width}, ${scheme})`);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/project/${project}/runs`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.locator('body').click({ position: { x: 5, y: height - 5 } });
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expect(page.getByText('Go to Projects')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.keyboard.press('g');
    await page.keyboard.press('p');
    await expect(page).toHaveURL(new RegExp(`/client/${user.clientId}/projects$`));
  });
});

test.describe('dark mode', () => {
  test('follows the system, and the toggle is remembered', async ({ page, request }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const user = await createUser(request, 'scheme');
    await projectsOf(page, user);
    const page_bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await page_bg()).toBe('rgb(15, 21, 24)');
    await page.getByRole('button', { name: 'Use light theme' }).click();
    expect(await page_bg()).toBe('rgb(236, 239, 241)');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Use dark theme' })).toBeVisible();
    expect(await page_bg()).toBe('rgb(236, 239, 241)');
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe finds nothing serious on the signed-in routes (${scheme})`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const user = await createUser(request, `axe${scheme}`);
      const project = await createProject(request, user, 'Axe project');
      await loginToken(page, user);
      const c = `/client/${user.clientId}`;
      for (const path of [
        '/account',
        '/plan',
        `${c}/projects`,
        `${c}/apikeys`,
        `${c}/integrations`,
        `${c}/create-integration`,
        `${c}/members`,
        `${c}/audit`,
        `${c}/usage`,
        `${c}/project/${project}/uploads`,
        `${c}/project/${project}/runs`,
        `${c}/project/${project}/models`,
        `${c}/project/${project}/create-fit-run`,
        `${c}/project/${project}/create-shrink-run`,
        `${c}/project/${project}/run/nosuchrun/details`,
      ]) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        await checkA11y(page, `${path} (${scheme})`);
      }
    });
  }
});
