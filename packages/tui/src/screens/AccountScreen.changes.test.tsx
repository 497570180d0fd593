// The account screen's changes against the real server: the password (other sessions end), the email (a link to the
// new address, opened in the terminal UI), the export saved as a file, and deleting the account.
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { ACCOUNT_MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { addMember, userStamp, withTestApi } from '@portal/testkit/api';
import { mailTo } from '@portal/testkit/harness';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

const call = async (name: keyof typeof CALLS, token: string) =>
  fetch(new URL(CALLS[name].path, server.server.url), { method: CALLS[name].method, headers: { authorization: `Bearer ${token}` } });

async function signInElsewhere(): Promise<string> {
  const r = await fetch(new URL(CALLS.login.path, server.server.url), {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${server.user.email}:${server.user.password}`).toString('base64')}` },
  });
  return (await r.json()).token;
}

/** The account screen at one of its sections (its key, 1-7), once the section shows `ready`. */
async function atSection(key: string, ready: string) {
  const ui = renderUi(server, '/account');
  await ui.see('Analytical Engines');
  await ui.type(key);
  await ui.see(ready);
  return ui;
}

describe('AccountScreen changes', { timeout: 60_000 }, () => {
  it('changes the password: the current one is asked, every other session ends', async () => {
    const other = await signInElsewhere();
    const ui = await atSection('4', 'Press Enter to change it.');
    await ui.type(KEY.enter);
    await ui.see('New password again:');
    await ui.type('not-mine', KEY.tab, 'Another-Secret-456!', KEY.tab, 'Another-Secret-456!', KEY.enter);
    await ui.see(ACCOUNT_MESSAGES.passwordWrong);
    await ui.type(KEY.up, KEY.up, '\u0015', server.user.password, KEY.enter);
    await ui.see(ACCOUNT_MESSAGES.passwordChanged);
    expect((await call('permissions', other)).status).toBe(401);
    expect((await call('permissions', server.user.token)).status).toBe(200);
    ui.unmount();
  });

  it('changes the email through the link mailed to the new address, opened in the terminal UI', async () => {
    const next = `new-${server.user.username}@example.com`;
    const ui = await atSection('5', `Email: ${server.user.email}`);
    await ui.type(KEY.enter, next, KEY.tab, server.user.password, KEY.enter);
    await ui.see(ACCOUNT_MESSAGES.emailSent(next));
    await ui.see(`Waiting for confirmation: ${next}`);
    expect(ui.lastFrame()).toContain('c cancel the change');
    ui.unmount();
    const link = /https?:\/\/\S+\/account\/email\/confirm\?token=\S+/.exec(await mailTo(server.server.dataDir, next))![0];
    const confirm = renderUi(server, new URL(link).pathname + new URL(link).search, { signedIn: false });
    await confirm.see('Press Enter');
    await confirm.type(KEY.enter);
    await confirm.see(ACCOUNT_MESSAGES.emailConfirmed(next));
    confirm.unmount();
    const again = await atSection('5', `Email: ${next}`);
    again.unmount();
  });

  it('cancels an email change waiting for its link (c)', async () => {
    const next = `other-${server.user.username}@example.com`;
    const ui = await atSection('5', `Email: ${server.user.email}`);
    await ui.type(KEY.enter, next, KEY.tab, server.user.password, KEY.enter);
    await ui.see(`Waiting for confirmation: ${next}`);
    await ui.type('c');
    await ui.see(ACCOUNT_MESSAGES.emailCancelled);
    await ui.gone('Waiting for confirmation');
    ui.unmount();
  });

  it('exports the account as a JSON file in the current folder', async () => {
    const ui = await atSection('6', 'Press Enter to save it');
    await ui.type(KEY.enter);
    await ui.see("Your account's data is saved in /here/portal-");
    const data = JSON.parse(ui.saved[0].text);
    expect(ui.saved[0].name).toMatch(/^portal-.*\.json$/);
    expect(data.user.email).toBe(server.user.email);
    expect(data.clients.length).toBeGreaterThan(0);
    ui.unmount();
  });

  it('deletes the account after the password; refused while the last owner of a client with members', async () => {
    const member = await server.newUser({ label: 'member' });
    await addMember(server, server.user.client, member);
    const ui = await atSection('7', 'Press Enter to delete it.');
    await ui.type(KEY.enter);
    await ui.see('Delete my account');
    await ui.type(server.user.password, KEY.enter);
    await ui.see('You are the last owner of Analytical Engines');
    // Once the member is gone, the account goes and the UI is at the login.
    await fetch(new URL(CALLS.memberRemove.path, server.server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client: server.user.client, user: await userStamp(server, member) }),
    });
    await ui.type('\u0015', server.user.password, KEY.enter);
    await ui.see(ACCOUNT_MESSAGES.deleted);
    await ui.see('Forgot password?');
    expect(ui.api.tokens.get()).toBeFalsy();
    expect((await call('permissions', server.user.token)).status).toBe(401);
    ui.unmount();
  });

  it('with two-factor sign-in on, deleting asks for a code too', async () => {
    const post = async (name: 'otpSetup' | 'otpEnable', body?: unknown) =>
      (
        await fetch(new URL(CALLS[name].path, server.server.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${server.user.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body ?? {}),
        })
      ).json();
    const { secret } = (await post('otpSetup')).otp;
    const code = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
    await post('otpEnable', { code: await code(0) });
    const ui = await atSection('7', 'Press Enter to delete it.');
    await ui.type(KEY.enter);
    await ui.see('Two-factor code:');
    // Enter in the password field moves on to the empty code field (the form's Enter rule); Enter there submits.
    await ui.type(server.user.password, KEY.enter);
    await ui.see('› Two-factor code:');
    await ui.type(await code(1), KEY.enter);
    await ui.see(ACCOUNT_MESSAGES.deleted);
    expect((await call('permissions', server.user.token)).status).toBe(401);
    ui.unmount();
  });
});
