// Connected requests: the fit form starts from the chosen upload's analysed column sizes, a generate links to the
// fit whose model it applies, and a fit lists the generates made from it; at 1280, 390 px and in dark mode.
import { test, expect } from '@playwright/test';
import { checkA11y, createProject, createUser, fitJson, fitThroughApi, inEveryLook, loginToken, uploadFile } from './helpers';

inEveryLook(({ width, scheme }) => {
  test('the fit form fills the column sizes from the chosen upload', async ({ page, request }) => {
    const user = await createUser(request, `prefill${width}${scheme}`);
    const project = await createProject(request, user, 'Sizes');
    // Three inputs and a target per row: input size 3, output size 3 (within the Individual plan's 5).
    await uploadFile(request, user, project, 'three.json', fitJson(40));
    await loginToken(page, user);
    await page.goto(`/client/${user.clientId}/project/${project}/create-fit-run`);
    await page.getByRole('combobox', { name: /Upload/ }).click();
    await page.getByRole('option', { name: 'three.json' }).click();
    await expect(page.getByLabel(/^Input column size/)).toHaveValue('3');
    await expect(page.getByLabel(/^Output column size/)).toHaveValue('3');
    await checkA11y(page, `fit form prefilled (${width}, ${scheme})`);
  });
});

test('a generate links to the fit that trained its model, and the fit lists its generates', async ({ page, request }) => {
  const user = await createUser(request, 'linked');
  const project = await createProject(request, user, 'Linked');
  const upload = await uploadFile(request, user, project, 'train.json', fitJson(60));
  const generate = await fitThroughApi(request, user, project, upload, 'Linked request');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${project}/run/${generate}/details`);
  const model = page.getByRole('link', { name: /Linked request \(the fit that trained it\)/ });
  await expect(model).toBeVisible();
  await model.click();
  await expect(page).not.toHaveURL(new RegExp(`/run/${generate}/details`));
  const uses = page
    .getByRole('region', { name: 'Requests using this model' })
    .or(page.locator('section', { hasText: 'Requests using this model' }))
    .first();
  // The fit's page also links its embeddings above the list: both lead to the same generate.
  await expect(uses.getByRole('link', { name: 'Linked request' }).last()).toBeVisible();
  await uses.getByRole('link', { name: 'Linked request' }).last().click();
  await expect(page).toHaveURL(new RegExp(`/run/${generate}/details$`));
});
