import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { withTestApi } from '@portal/testkit/api';
import { canLogIn, resetToken } from '@portal/testkit/seed';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('ResetPasswordScreen', { timeout: 30_000 }, () => {
  it('takes the token from the path, checks the password rule and match, then changes it', async () => {
    // The token of the link the server mailed to this test's user.
    const token = await resetToken(server, server.user);
    const ui = renderUi(server, `/reset-password?token=${encodeURIComponent(token)}`, { signedIn: false });
    // The field shows the token's end, where the cursor is (a long value scrolls within its line).
    await ui.see(token.slice(-24));
    await ui.type(KEY.tab, 'weak', KEY.tab, 'weak', KEY.enter);
    await ui.see(MESSAGES.password);
    await ui.type(KEY.up, 'Long-99', KEY.tab, 'Long-98', KEY.enter);
    const frame = await ui.see(MESSAGES.passwordMismatch);
    expect(frame).not.toContain(MESSAGES.password);
    await ui.type('\u007F', '9', KEY.enter);
    await ui.see(MESSAGES.passwordChanged);
    expect(server.calls).toContain('resetFinish');
    // The new password (typed after the rejected 'weak') is the one that logs in now.
    expect(await canLogIn(server, server.user.email, 'weakLong-99')).toBe(true);
    expect(await canLogIn(server, server.user.email, server.user.password)).toBe(false);
    ui.unmount();
  });

  it('without the token from the email the reset fails with Invalid credentials, as on the web', async () => {
    const ui = renderUi(server, '/reset-password', { signedIn: false });
    await ui.see('Change password');
    // Enter goes back to the empty token field first; Enter there sends the form as it is.
    await ui.type(KEY.tab, 'Long-999', KEY.tab, 'Long-999', KEY.enter);
    await ui.see('› Link or token from the email');
    await ui.type(KEY.enter);
    await ui.see(MESSAGES.invalidCredentials);
    expect(server.calls).not.toContain('resetFinish');
    expect(await canLogIn(server, server.user.email, server.user.password)).toBe(true);
    ui.unmount();
  });
});
