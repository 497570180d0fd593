import { describe, expect, it } from 'vitest';
import { rows, seedEmptyProject, withTestApi } from '@portal/testkit/api';
import { renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('server text in the terminal UI', { timeout: 30_000 }, () => {
  it('table cells, the header, the menu and the remove prompt show control and bidi characters as visible escapes', async () => {
    await rows(server).updateTable('clients').set({ name: 'Acme\x1b]0;owned\x07 Ltd' }).where('stamp', '=', server.user.client).execute();
    await seedEmptyProject(server, { name: 'invoice\u202egpj.exe\r\nfake' });
    const ui = renderUi(server, `/client/${server.user.client}/projects`);
    await ui.see('invoice\\u202egpj.exe\\r\\nfake');
    await ui.see('Acme\\x1b]0;owned\\x07 Ltd');
    const frame = ui.lastFrame() ?? '';
    expect(frame).not.toContain('\u202e');
    expect(frame).not.toContain('\x07');
    expect(frame).not.toContain('\x1b]0;');
    expect(frame).not.toContain('\r');
    // The remove prompt names it the same way.
    await ui.type('d');
    await ui.see('Remove invoice\\u202egpj.exe\\r\\nfake? (y/n)');
    expect(ui.lastFrame()).not.toContain('\u202e');
    ui.unmount();
  });
});
