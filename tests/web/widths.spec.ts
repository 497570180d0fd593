// Tables that fit: every list screen at 1280x800 (light and dark) with 60-character names and long emails fits its card
// with Actions in view (no sideways scroll); on a 390 px phone the lists are cards and the page never scrolls sideways.
import { test, expect, type Page } from '@playwright/test';
import {
  auth,
  createProject,
  createUser,
  firstCardList,
  fitThroughApi,
  fitJson,
  inEveryLook,
  loginToken,
  mailedLink,
  MODEL_PY,
  PASSWORD,
  shot,
  shrinkThroughApi,
  sidewaysScroll,
  uploadFile,
  unique,
  type TestUser,
} from './helpers';

const sixty = (start: string) => `${start} ${'x'.repeat(60)}`.slice(0, 60);

interface Seeded {
  user: TestUser;
  project: string;
}

/** A client with one of everything, each named with 60 characters, and a member and an invitation with long emails. */
async function seed(request: import('@playwright/test').APIRequestContext): Promise<Seeded> {
  const user = await createUser(request, 'wide');
  const h = auth(user);
  const project = await createProject(request, user, sixty('Project of the quarterly customer churn'));
  const data = await uploadFile(request, user, project, `${sixty('data_columns_for_the_churn_model').slice(0, 55)}.json`, fitJson());
  const model = await uploadFile(request, user, project, `${sixty('model_definition_small').slice(0, 57)}.py`, MODEL_PY);
  await fitThroughApi(request, user, project, data, sixty('Fit of the churn model on every column'));
  await shrinkThroughApi(request, user, project, model, sixty('Shrink of the small model definition'));
  expect(
    (
      await request.put('/api/client/apikey/item', { headers: h, data: { client: user.clientId, name: sixty('Key for the nightly job') } })
    ).ok(),
  ).toBe(true);
  expect(
    (
      await request.put('/api/integration/apikey/item', {
        headers: h,
        data: { client: user.clientId, name: sixty('OpenAI for the text requests'), service: 'OpenAI', token: 'sk-test-0123456789' },
      })
    ).ok(),
  ).toBe(true);
  // A member with a long email (signed up, invited, accepted) and an invitation still open for another.
  const local = unique('a.very.long.address.for.the.members.table.');
  const email = `${local}@example-company-with-a-long-domain.com`;
  const member = await request.post('/api/user/signup', {
    data: { email, username: unique('member'), password: PASSWORD, name: 'Company of the member' },
  });
  expect(member.ok(), await member.text()).toBe(true);
  expect((await request.put('/api/client/member/invite', { headers: h, data: { client: user.clientId, email } })).ok()).toBe(true);
  const link = await mailedLink(email, /\/invite\?token=[^\s]+/);
  const token = new URL(link, 'http://x').searchParams.get('token');
  const accepted = await request.post('/api/client/member/accept', { headers: auth(await member.json()), data: { token } });
  expect(accepted.ok(), await accepted.text()).toBe(true);
  const other = `${unique('another.very.long.address.still.waiting.')}@example-company-with-a-long-domain.com`;
  expect((await request.put('/api/client/member/invite', { headers: h, data: { client: user.clientId, email: other } })).ok()).toBe(true);
  return { user, project };
}

/** Every list screen of the client and its project. */
const screens = ({ user, project }: Seeded): Array<[string, string]> => {
  const c = `/client/${user.clientId}`;
  return [
    ['My Account', '/account'],
    ['Projects', `${c}/projects`],
    ['API Keys', `${c}/apikeys`],
    ['Integrations', `${c}/integrations`],
    ['Members', `${c}/members`],
    ['Audit Log', `${c}/audit`],
    ['Usage', `${c}/usage`],
    ['Requests', `${c}/project/${project}/runs`],
    ['Uploads', `${c}/project/${project}/uploads`],
    ['Models', `${c}/project/${project}/models`],
  ];
};

/** Every table on the page: none scrolls sideways, and its last header (Actions where there is one) is inside it. */
async function tablesFit(page: Page, where: string, some: boolean) {
  const regions = page.locator('[role="region"][aria-label$=" table"]');
  if (some) await expect(regions.first()).toBeVisible();
  for (const region of await regions.all()) {
    const name = await region.getAttribute('aria-label');
    const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect.soft(overflow, `${where}: ${name} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
    const box = (await region.boundingBox())!;
    const last = (await region.locator('thead th').last().boundingBox())!;
    expect.soft(last.x + last.width, `${where}: ${name}'s last column is cut`).toBeLessThanOrEqual(box.x + box.width + 1);
  }
}

inEveryLook(({ width, scheme }) => {
  test(`every list fits its card with 60-character names (${width} px, ${scheme})`, async ({ page, request }) => {
    test.setTimeout(240_000);
    const seeded = await seed(request);
    await loginToken(page, seeded.user);
    for (const [heading, path] of screens(seeded)) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      // A phone shows lists as cards; a table that stays (a usage summary) still fits.
      await tablesFit(page, heading, width >= 1280);
      if (width < 1280 && heading !== 'Usage') await expect(firstCardList(page)).toBeVisible();
      expect.soft(await sidewaysScroll(page), `${heading}: the page scrolls sideways`).toBeLessThanOrEqual(0);
      await shot(page, `widths-${heading.toLowerCase().replace(/\W+/g, '-')}-${width}-${scheme}`);
    }
  });
});
