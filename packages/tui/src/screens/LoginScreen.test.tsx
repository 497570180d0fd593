import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('LoginScreen', { timeout: 30_000 }, () => {
  it('signs in and opens My Account with the user accounts', async () => {
    const ui = renderUi(server, '/', { signedIn: false });
    await ui.see('Password:');
    await ui.type('ada@example.com', KEY.tab, 'Secret-123', KEY.enter);
    const frame = await ui.see('Analytical Engines');
    expect(frame).toContain('My Account');
    expect(ui.api.tokens.get()).toBeTruthy();
    ui.unmount();
  });

  it('shows Invalid credentials on a wrong password', async () => {
    const ui = renderUi(server, '/', { signedIn: false });
    await ui.see('Password:');
    await ui.type('ada@example.com', KEY.down, 'wrong', KEY.enter);
    await ui.see(MESSAGES.invalidCredentials);
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
});
