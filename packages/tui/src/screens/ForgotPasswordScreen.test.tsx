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
    await ui.see('Send reset link');
    await ui.see('Enter the email you signed up with');
    await ui.type('nope', KEY.enter);
    await ui.see(MESSAGES.email);
    await ui.type('@example.com', KEY.enter);
    const done = await ui.see(MESSAGES.resetStarted);
    expect(done).not.toContain('Email:');
    expect(server.state.calls).toContain('resetStart');
    // A terminal cannot open the email's link: the token it carries is typed on the next screen.
    await ui.type(KEY.enter);
    await ui.see('Token from the email:');
    ui.unmount();
  });
});
