// Seeing the data in the browser: an upload's preview (rows, column statistics, a model's layers) and a generate
// request's map (a canvas scatter whose points show their rows on hover).
import { test, expect } from '@playwright/test';
import { formatCell } from '@portal/core';
import { createProject, createUser, fitThroughApi, loginToken, MODEL_PY, shot, uploadFile } from './helpers';

test('an upload file shows its preview: formatted rows, each column with type, range, mean, missing and a histogram', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'preview');
  const project = await createProject(request, user, 'Preview');
  const rows = Array.from({ length: 150 }, (_, i) => [i * 1000, i / 3, i % 2]);
  await uploadFile(request, user, project, 'table.json', JSON.stringify({ columns: ['amount', 'third', 'flag'], rows }));
  await uploadFile(request, user, project, 'model.py', MODEL_PY);
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${project}/uploads`);

  await page.getByRole('button', { name: 'Preview table.json' }).click();
  const dialog = page.getByRole('dialog', { name: 'Preview of table.json' });
  await expect(dialog.getByText('150 rows, 3 columns')).toBeVisible();
  await expect(dialog.getByText('Showing the first 100 of 150 rows; the statistics cover every row.')).toBeVisible();
  const table = dialog.getByRole('table', { name: 'Preview rows' });
  await expect(table.getByRole('row')).toHaveCount(101);
  // Numbers formatted; the exact value on hover.
  await expect(table.getByRole('row').nth(3).getByRole('cell').nth(1)).toHaveText('2,000');
  await expect(table.getByRole('row').nth(3).getByRole('cell').nth(2)).toHaveText('0.666667');
  await expect(table.getByRole('row').nth(3).getByRole('cell').nth(2)).toHaveAttribute('title', String(2 / 3));
  const amount = table.getByRole('columnheader', { name: /amount/ });
  await expect(amount).toContainText('type integer');
  await expect(amount).toContainText('max 149,000');
  await expect(amount).toContainText('mean 74,500');
  await expect(amount).toContainText('missing 0');
  await expect(amount.getByLabel('histogram')).toBeVisible();
  await shot(page, 'upload-preview-table');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Preview model.py' }).click();
  const model = page.getByRole('dialog', { name: 'Preview of model.py' });
  await expect(model.getByText(/layers, [\d,]+ parameters/)).toBeVisible();
  await expect(model.getByRole('table', { name: 'Model layers' }).getByRole('row').nth(1)).toBeVisible();
});

test("a generate request's map: two classes drawn in their colours, a legend, each axis's variance, a point's row on hover", async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'map');
  const project = await createProject(request, user, 'Map');
  const rows = Array.from({ length: 300 }, (_, i) => {
    const c = i % 2;
    return [(c ? 3 : -3) + (i % 7) / 20, (c ? 3 : -3) - (i % 5) / 20, (c ? 2 : -2) + (i % 3) / 20, c];
  });
  const upload = await uploadFile(request, user, project, 'two.json', JSON.stringify(rows));
  const gen = await fitThroughApi(request, user, project, upload, 'Two classes', 'classification');
  await loginToken(page, user);
  await page.goto(`/client/${user.clientId}/project/${project}/run/${gen}/details`);
  const map = page.getByRole('region', { name: 'Embedding map' });
  const canvas = map.getByRole('img', { name: 'Embedding map of 300 points' });
  await expect(canvas).toBeVisible();
  const colourBy = map.getByRole('combobox', { name: 'Colour by' });
  await expect(colourBy).toHaveText('column 4 (target)');
  await expect(map.getByRole('list', { name: 'Legend' })).toBeVisible();
  await expect(map.getByRole('listitem')).toHaveText(['0', '1']);
  await expect(map.getByText(/Horizontal axis explains \d+% of the variance, vertical \d+%/)).toBeVisible();
  // A drawn point, found from the canvas's own pixels (in CSS pixels), then hovered.
  const findDot = () =>
    canvas.evaluate((c: HTMLCanvasElement) => {
      const { data, width, height } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      const ratio = c.width / c.clientWidth;
      for (let i = 0; i < width * height; i++)
        if (data[i * 4 + 3] > 200) return { x: (i % width) / ratio, y: Math.floor(i / width) / ratio };
      return null;
    });
  await expect.poll(findDot).not.toBeNull();
  const at = (await findDot())!;
  await canvas.hover({ position: { x: at.x + 1, y: at.y + 1 } });
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText(/Row \d+/);
  const row = Number(/Row ([\d,]+)/.exec((await tip.textContent()) ?? '')![1].replace(/,/g, '')) - 1;
  await expect(tip).toContainText(`column 4: ${rows[row][3]}`);
  await expect(tip).toContainText(
    `Inputs ${rows[row]
      .slice(0, 3)
      .map((v) => formatCell(v))
      .join(', ')}`,
  );
  await shot(page, 'embedding-map');
  // Any column of the upload colours the map: a continuous one falls in equal ranges.
  await page.mouse.move(0, 0);
  await colourBy.click();
  await page.getByRole('option', { name: 'column 1' }).click();
  await expect(colourBy).toHaveText('column 1');
  await expect(map.getByRole('listitem')).toHaveCount(5);
  await expect(map.getByRole('listitem').first()).toContainText('–');
});
