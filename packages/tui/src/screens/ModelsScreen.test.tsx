import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, seedProject, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('ModelsScreen', { timeout: 30_000 }, () => {
  it('shows general and own models; renames and removes own ones; n creates a new model', async () => {
    const { project, model } = await seedProject(server);
    const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/models`);
    const frame = await ui.see('Churn model');
    // The general models every account sees come with the server's database.
    expect(frame).toMatch(/Tabular regression \(general\)\s+Embeds numeric rows/);
    expect(frame).toMatch(/Churn model\s+Finished\s+-\s+\S+ \S+\s+data\.json/);
    await ui.type('r', ' 2', KEY.enter);
    await ui.gone('New name:');
    await ui.see('Churn model 2');
    await ui.type('d', 'y');
    await ui.see(new RegExp(`Your Models .*${MESSAGES.noModels}`));
    const row = await rows(server)
      .selectFrom('models')
      .select(['name', 'active'])
      .where('stamp', '=', model.stamp)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Churn model 2', active: 0 });
    await ui.type('n');
    await ui.see('Create Request');
    ui.unmount();
  });
});
