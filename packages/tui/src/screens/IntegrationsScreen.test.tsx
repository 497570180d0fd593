import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, type IntegrationKey } from '@portal/core';
import { rows, withTestApi } from '@portal/testkit/api';
import { seedIntegration } from '@portal/testkit/seed';
import { KEY, renderUi } from '../../test/ui';

let key: IntegrationKey;
const server = withTestApi({ worker: false });
beforeEach(async () => {
  key = await seedIntegration(server, { name: 'OpenAI prod', token: 'sk-secret-abcd', runs: 3 });
});

const stored = () =>
  rows(server).selectFrom('integrations').select(['name', 'active']).where('clue', '=', key.clue).executeTakeFirstOrThrow();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('IntegrationsScreen', { timeout: 30_000 }, () => {
  it('lists keys masked, renames, removes and opens the create screen', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/integrations`);
    const frame = await ui.see('OpenAI prod');
    expect(frame).toMatch(new RegExp(`OpenAI prod\\s+${escape(key.clue)}\\s+OpenAI\\s+sk-•+abcd\\s+3`));
    expect(frame).not.toContain('sk-secret');
    await ui.type('r', ' v2', KEY.enter);
    await ui.gone('New name:');
    await ui.see('OpenAI prod v2');
    expect(await stored()).toEqual({ name: 'OpenAI prod v2', active: 1 });
    await ui.type('d', 'y');
    await ui.see(MESSAGES.integrationNotFound);
    expect((await stored()).active).toBe(0);
    await ui.type('n');
    await ui.see('Create Integration');
    ui.unmount();
  });
});
