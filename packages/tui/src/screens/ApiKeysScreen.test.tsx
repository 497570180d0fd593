import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

/** The account's keys as the server stored them. */
const keys = () => rows(server).selectFrom('apikeys').selectAll().where('client', '=', server.user.client).orderBy('created_at').execute();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('ApiKeysScreen', { timeout: 30_000 }, () => {
  it('creates a key only while the list is empty, renames, removes after confirming', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/apikeys`);
    await ui.see(MESSAGES.noApiKeys);
    await ui.type('n', 'x'.repeat(61), KEY.enter);
    await ui.see(MESSAGES.titleCreate);
    expect(await keys()).toHaveLength(0);
    await ui.type(KEY.esc, 'n', 'CI key', KEY.enter);
    // The typed name shows in the form before the key exists: wait for the server's row.
    const [made] = await vi.waitFor(async () => {
      const made = await keys();
      expect(made).toHaveLength(1);
      return made;
    });
    expect(made).toMatchObject({ name: 'CI key', active: 1, installs: 0 });
    let frame = await ui.see(new RegExp(`CI key\\s+${escape(made.clue)}\\s+0`));
    await ui.type('n');
    frame = await ui.see('CI key');
    expect(frame).not.toContain('Name:');
    await ui.type('r', ...Array(6).fill('\u007F'), 'Prod', KEY.enter);
    await ui.see(new RegExp(`Prod\\s+${escape(made.clue)}`));
    // The list shows the new name as the rename is sent: wait for the server's row and for the list to take keys again.
    await vi.waitFor(async () => expect((await keys())[0].name).toBe('Prod'));
    await ui.gone('Working…');
    await ui.type('d');
    await ui.see('Remove Prod? (y/n)');
    await ui.type('n');
    expect((await keys())[0].active).toBe(1);
    await ui.type('d', 'y');
    await ui.see(MESSAGES.noApiKeys);
    expect(await keys()).toMatchObject([{ clue: made.clue, active: 0 }]);
    ui.unmount();
  });

  it('a failing rename shows SPEC message', async () => {
    server.failing.apikeyRename = 500;
    const ui = renderUi(server, `/client/${server.user.client}/apikeys`);
    await ui.see(MESSAGES.noApiKeys);
    await ui.type('n', 'CI', KEY.enter);
    await ui.see(/CI\s+k_/);
    await ui.type('r', 'x', KEY.enter);
    await ui.see(MESSAGES.renameApiKey);
    expect((await keys())[0].name).toBe('CI');
    ui.unmount();
  });

  it('Enter opens the key details', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/apikeys`);
    await ui.see(MESSAGES.noApiKeys);
    await ui.type('n', 'CI', KEY.enter);
    await ui.see(/CI\s+k_/);
    await ui.type(KEY.enter);
    await ui.see('Installer (Linux 64-bit)');
    ui.unmount();
  });
});
