// The account screen's security sections against the real server: two-factor sign-in on (QR code at 80x24, the
// secret, a code generated here, the recovery codes once) and off, and the sessions list with ending one and the rest.
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { SECURITY_MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });
const RIGHT = '\u001B[C';

const otpStatus = async (token: string) =>
  (await (await fetch(new URL(CALLS.otpStatus.path, server.server.url), { headers: { authorization: `Bearer ${token}` } })).json()).otp;

/** Another sign-in of the test user (another session), as a browser would make. */
async function signInElsewhere(userAgent: string): Promise<string> {
  const r = await fetch(new URL(CALLS.login.path, server.server.url), {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${server.user.email}:${server.user.password}`).toString('base64')}`,
      'user-agent': userAgent,
    },
  });
  return (await r.json()).token;
}

describe('AccountScreen security', { timeout: 60_000 }, () => {
  it('turns two-factor sign-in on at 80x24 (QR code, secret, code, recovery codes once) and off with a recovery code', async () => {
    const ui = renderUi(server, '/account', { size: { columns: 80, rows: 24 } });
    await ui.see('Analytical Engines');
    await ui.type(RIGHT);
    await ui.see('Press Enter to set it up.');
    expect(ui.lastFrame()).toContain('←→ section · Enter set up');
    await ui.type(KEY.enter);
    const frame = await ui.see('Copy the secret');
    // The whole frame fits the terminal, QR code and all.
    const lines = ui.lastFrame()!.split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(80);
    expect(frame).toMatch(/[█▀▄]{7}/);
    expect(frame).toContain('Scan the QR code');
    // The copy links give the secret (the one shown) and the whole URI.
    await ui.type(KEY.down, KEY.down, KEY.enter, KEY.down, KEY.enter);
    const secret = ui.copied[0];
    expect(frame).toContain(secret);
    expect(ui.copied).toEqual([secret, expect.stringMatching(new RegExp(`^otpauth://totp/.*secret=${secret}`))]);
    const code = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
    await ui.type(KEY.up, KEY.up, KEY.up, 'zzzzz-zzzzz', KEY.enter);
    // Beside the QR code the sentence wraps in its own column: its first words are on one line.
    await ui.see(SECURITY_MESSAGES.otpInvalid.slice(0, 30));
    await ui.type('\u0015', await code(0), KEY.enter);
    const shown = await ui.see(SECURITY_MESSAGES.otpEnabled);
    const codes = shown.match(/\b[a-z0-9]{5}-[a-z0-9]{5}\b/g)!;
    expect(codes).toHaveLength(10);
    expect((await otpStatus(server.user.token)).enabled).toBe(true);
    // Copy and save, then gone once kept.
    await ui.type(KEY.enter, KEY.down, KEY.enter);
    expect(ui.copied[2].split('\n').sort()).toEqual([...codes].sort());
    await ui.see('Saved in /here/portal-recovery-codes.txt');
    expect(ui.saved[0].text.trim().split('\n').sort()).toEqual([...codes].sort());
    await ui.type(KEY.up, KEY.up, KEY.enter);
    await ui.see('Recovery codes left: 10');
    // (The copy notice still shows the first line of what was copied.)
    expect(ui.lastFrame()).not.toContain(codes[5]);

    // Off with the password and a recovery code.
    await ui.type(KEY.enter);
    await ui.see('Turn off');
    await ui.type(server.user.password, KEY.tab, codes[0], KEY.enter);
    await ui.see('Press Enter to set it up.');
    expect((await otpStatus(server.user.token)).enabled).toBe(false);
    ui.unmount();
  });

  it('without room for the QR code, shows the secret and says how large a terminal it needs; Esc cancels the setup', async () => {
    const ui = renderUi(server, '/account', { size: { columns: 60, rows: 20 } });
    await ui.see('Analytical Engines');
    await ui.type('2');
    await ui.see('Press Enter to set it up.');
    await ui.type(KEY.enter);
    const frame = await ui.see('The QR code shows in a terminal of at least');
    expect(frame).toContain('Type the secret');
    expect(frame).not.toMatch(/[█▀▄]{7}/);
    await ui.type(KEY.esc);
    await ui.see('Press Enter to set it up.');
    // Esc closed the setup: the screen is still the account's.
    expect(ui.lastFrame()).toContain('Two-factor');
    ui.unmount();
  });

  it('lists the sessions (this one marked), ends one, then all the others', async () => {
    await signInElsewhere('Firefox on the laptop');
    await signInElsewhere('Safari on the phone');
    const ui = renderUi(server, '/account');
    await ui.see('Analytical Engines');
    await ui.type('3');
    let frame = await ui.see('Safari on the phone');
    expect(frame).toContain('Firefox on the laptop');
    expect(frame).toContain('(this session)');
    expect(frame).toContain('d end · o end all others');
    // The first row is the last used: this session, which only Logout ends.
    await ui.type('/', 'Firefox', KEY.enter, 'd');
    await ui.see('End the session of Firefox on the laptop');
    await ui.type('y');
    await ui.gone('Firefox on the laptop');
    await ui.type(KEY.esc);
    frame = await ui.see('Safari on the phone');
    await ui.type('o');
    await ui.see('End all 1 other session? (y/n)');
    await ui.type('y');
    await ui.gone('Safari on the phone');
    expect(ui.lastFrame()).toContain('(this session)');
    ui.unmount();
  });
});
