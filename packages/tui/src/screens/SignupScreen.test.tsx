import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

describe('SignupScreen', { timeout: 30_000 }, () => {
  it('shows each rule message under its field', async () => {
    const ui = renderUi(server, '/signup', { signedIn: false });
    await ui.see('Company name');
    await ui.type('bad', KEY.tab, 'abc', KEY.tab, 'Co', KEY.tab, 'weak', KEY.tab, 'other', KEY.tab, KEY.tab, KEY.enter);
    const frame = await ui.see(MESSAGES.email);
    for (const m of [MESSAGES.username, MESSAGES.companyName, MESSAGES.password, MESSAGES.passwordMismatch, MESSAGES.terms])
      expect(frame).toContain(m);
    expect(server.calls).not.toContain('signup');
    ui.unmount();
  });

  it('signs up with valid fields and the terms ticked', async () => {
    const ui = renderUi(server, '/signup', { signedIn: false });
    await ui.see('Company name');
    await ui.type(
      'grace@example.com',
      KEY.tab,
      'grace_h',
      KEY.tab,
      'Hopper Ltd',
      KEY.tab,
      'Secret-123',
      KEY.tab,
      'Secret-123',
      KEY.tab,
      KEY.space,
      KEY.tab,
      KEY.enter,
    );
    // The new account on the account list (the company name alone is also in the form while it is sent).
    await ui.see(/Hopper Ltd\s+Individual/);
    expect(ui.api.tokens.get()).toBeTruthy();
    // The server made the user and their account.
    const made = await rows(server)
      .selectFrom('users')
      .innerJoin('permissions', 'permissions.user_stamp', 'users.stamp')
      .innerJoin('clients', 'clients.stamp', 'permissions.client_stamp')
      .select(['users.username', 'clients.name'])
      .where('users.email', '=', 'grace@example.com')
      .execute();
    expect(made).toEqual([{ username: 'grace_h', name: 'Hopper Ltd' }]);
    ui.unmount();
  });
});
