import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { KEY, renderUi } from '../testing/ui';

let server: FakeApi;
beforeEach(async () => (server = await startFakeApi()));
afterEach(() => server.close());

describe('SignupScreen', { timeout: 30_000 }, () => {
  it('shows each rule message under its field', async () => {
    const ui = renderUi(server, '/signup', { signedIn: false });
    await ui.see('Company name');
    await ui.type('bad', KEY.tab, 'abc', KEY.tab, 'Co', KEY.tab, 'weak', KEY.tab, 'other', KEY.tab, KEY.tab, KEY.enter);
    const frame = await ui.see(MESSAGES.email);
    for (const m of [MESSAGES.username, MESSAGES.companyName, MESSAGES.password, MESSAGES.passwordMismatch, MESSAGES.terms]) expect(frame).toContain(m);
    expect(server.state.calls).not.toContain('signup');
    ui.unmount();
  });

  it('signs up with valid fields and the terms ticked', async () => {
    const ui = renderUi(server, '/signup', { signedIn: false });
    await ui.see('Company name');
    await ui.type('grace@example.com', KEY.tab, 'grace_h', KEY.tab, 'Hopper Ltd', KEY.tab, 'Secret-123', KEY.tab, 'Secret-123', KEY.tab, KEY.space, KEY.tab, KEY.enter);
    await ui.see('Hopper Ltd');
    expect(ui.api.tokens.get()).toBeTruthy();
    ui.unmount();
  });
});
