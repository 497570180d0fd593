import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('ForgotPasswordScreen', { timeout: 30_000 }, () => {
  it('checks the email, then confirms the reset mail', async () => {
    const ui = renderUi(server, '/forgot-password', { signedIn: false });
    await ui.see('Send Reset Link');
    await ui.type('nope', KEY.enter);
    await ui.see(MESSAGES.email);
    await ui.type('@example.com', KEY.enter);
    await ui.see(MESSAGES.resetStarted);
    expect(server.state.calls).toContain('resetStart');
    ui.unmount();
  });
});
