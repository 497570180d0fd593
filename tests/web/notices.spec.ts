// One report per event: at most three notices at once, the newest on top, the same text shown once, and none over the
// page's heading (at 1280x800 light and dark, and on a 390 px phone).
import { test, expect, type Page } from '@playwright/test';
import { MESSAGES } from '@portal/core';
import { createApiKey, createUser, inEveryLook, loginToken } from './helpers';

const notices = (page: Page) => page.locator('#notistack-snackbar');

/** No notice overlaps the page's heading. */
async function headingClear(page: Page) {
  const heading = (await page.locator('#page-title').boundingBox())!;
  for (const n of await notices(page).all()) {
    const box = await n.boundingBox();
    if (!box) continue;
    const apart =
      box.x + box.width <= heading.x ||
      heading.x + heading.width <= box.x ||
      box.y + box.height <= heading.y ||
      heading.y + heading.height <= box.y;
    expect(apart, `a notice covers the heading: ${await n.textContent()}`).toBe(true);
  }
}

inEveryLook(({ width, scheme }) => {
  test(`at most three notices, newest on top, duplicates merged, the heading clear (${width} px, ${scheme})`, async ({ page, request }) => {
    const user = await createUser(request, `notes${width}${scheme}`);
    const key = await createApiKey(request, user, 'CI key');
    // Every copy fails here, so each click reports one error.
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
        configurable: true,
      });
    });
    await loginToken(page, user);
    await page.goto(`/client/${user.clientId}/apikey/${key.clue}/info`);
    await expect(page.getByRole('heading', { name: 'CI key' })).toBeVisible();
    await page.getByRole('button', { name: 'Copy token' }).click();
    await expect(notices(page).filter({ hasText: MESSAGES.copyToken })).toHaveCount(1);
    // The same failure again: still one notice of it.
    await page.getByRole('button', { name: 'Copy token' }).click();
    await page.getByRole('button', { name: /Copy installer/ }).click();
    await expect(notices(page).filter({ hasText: MESSAGES.copyCode })).toHaveCount(1);
    await expect(notices(page).filter({ hasText: MESSAGES.copyToken })).toHaveCount(1);
    await page.getByRole('button', { name: 'Copy python example' }).click();
    await page.getByRole('button', { name: 'Copy token' }).click();
    await expect(notices(page).filter({ hasText: MESSAGES.copyExample })).toHaveCount(1);
    expect(await notices(page).count()).toBeLessThanOrEqual(3);
    await expect(notices(page).filter({ hasText: MESSAGES.copyToken })).toHaveCount(1);
    await headingClear(page);
    // The newest stands on top of the stack.
    const boxes = await Promise.all(
      (await notices(page).all()).map(async (n) => ({ text: await n.textContent(), y: (await n.boundingBox())?.y ?? 0 })),
    );
    const top = boxes.reduce((a, b) => (b.y < a.y ? b : a));
    expect(top.text).toContain(MESSAGES.copyExample);
  });
});
