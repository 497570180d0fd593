import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { MESSAGES, SECURITY_MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('LoginScreen', { timeout: 30_000 }, () => {
  it('signs in and opens My Account with the user accounts', async () => {
    const ui = renderUi(server, '/', { signedIn: false });
    await ui.see('Password:');
    await ui.type(server.user.email, KEY.tab, server.user.password, KEY.enter);
    const frame = await ui.see('Analytical Engines');
    expect(frame).toContain('My Account');
    expect(server.calls).toContain('login');
    // A session token the server accepts: it is the one the account list was read with.
    const token = ui.api.tokens.get();
    expect(token).toBeTruthy();
    const me = await fetch(new URL(CALLS.permissions.path, server.server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    ui.unmount();
  });

  it('shows Invalid credentials on a wrong password', async () => {
    const ui = renderUi(server, '/', { signedIn: false });
    await ui.see('Password:');
    await ui.type(server.user.email, KEY.down, 'wrong', KEY.enter);
    await ui.see(MESSAGES.invalidCredentials);
    expect(ui.api.tokens.get()).toBeFalsy();
    ui.unmount();
  });

  it('links to sign-up and forgot password', async () => {
    const ui = renderUi(server, '/', { signedIn: false });
    await ui.see('Password:');
    await ui.type(KEY.tab, KEY.tab, KEY.tab, KEY.enter);
    await ui.see('Sign Up');
    await ui.type(KEY.esc);
    await ui.see('Create an account');
    await ui.see('Forgot password?');
    await ui.type(KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.enter);
    await ui.see('Send reset link');
    ui.unmount();
  });

  it('a screen that needs sign-in without a token goes to the root with Token missing', async () => {
    const ui = renderUi(server, '/account', { signedIn: false });
    const frame = await ui.see(MESSAGES.tokenMissing);
    expect(frame).toContain('Login');
    ui.unmount();
  });

  it('with two-factor sign-in on, asks for the code after the password, then signs in', async () => {
    const post = async (path: string, token: string, body?: unknown) =>
      (
        await fetch(new URL(path, server.server.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body ?? {}),
        })
      ).json();
    const { secret } = (await post(CALLS.otpSetup.path, server.user.token)).otp;
    const code = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
    const { recovery } = (await post(CALLS.otpEnable.path, server.user.token, { code: await code(0) })).otp;
    try {
      const ui = renderUi(server, '/', { signedIn: false });
      await ui.see('Password:');
      await ui.type(server.user.email, KEY.tab, server.user.password, KEY.enter);
      await ui.see(SECURITY_MESSAGES.otpRequired);
      expect(ui.api.tokens.get()).toBeFalsy();
      await ui.type(await code(1), KEY.enter);
      await ui.see('Analytical Engines');
      expect(ui.api.tokens.get()).toBeTruthy();
      ui.unmount();
    } finally {
      await post(CALLS.otpDisable.path, server.user.token, { code: recovery[0], password: server.user.password });
    }
  });
});
