import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('ResetPasswordScreen', { timeout: 30_000 }, () => {
  it('takes the token from the path, checks the password rule and match, then changes it', async () => {
    const ui = renderUi(server, '/reset-password?token=abc', { signedIn: false });
    await ui.see('abc');
    await ui.type(KEY.tab, 'weak', KEY.tab, 'weak', KEY.enter);
    await ui.see(MESSAGES.password);
    await ui.type(KEY.up, 'Long-99', KEY.tab, 'Long-98', KEY.enter);
    const frame = await ui.see(MESSAGES.passwordMismatch);
    expect(frame).not.toContain(MESSAGES.password);
    await ui.type('\u007F', '9', KEY.enter);
    await ui.see(MESSAGES.passwordChanged);
    expect(server.state.calls).toContain('resetFinish');
    ui.unmount();
  });

  it('without the token from the email the reset fails with Invalid credentials, as on the web', async () => {
    const ui = renderUi(server, '/reset-password', { signedIn: false });
    await ui.see('Change password');
    await ui.type(KEY.tab, 'Long-999', KEY.tab, 'Long-999', KEY.enter);
    await ui.see(MESSAGES.invalidCredentials);
    expect(server.state.calls).not.toContain('resetFinish');
    ui.unmount();
  });
});
