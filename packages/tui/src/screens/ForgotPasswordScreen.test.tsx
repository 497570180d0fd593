import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { rows, withTestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';

const server = withTestApi({ worker: false });

/** The mails the server wrote to its outbox (no SMTP in tests) for this address; sent in the background, so waited for. */
async function mailsTo(email: string): Promise<string[]> {
  const dir = join(server.server.dataDir, 'outbox');
  const end = Date.now() + 5000;
  for (;;) {
    const names = await readdir(dir).catch(() => [] as string[]);
    const mails = (await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')))).filter((m) => m.startsWith(`To: ${email}\n`));
    if (mails.length || Date.now() > end) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ForgotPasswordScreen', { timeout: 30_000 }, () => {
  it('checks the email, then confirms the reset mail', async () => {
    const ui = renderUi(server, '/forgot-password', { signedIn: false });
    await ui.see('Send reset link');
    await ui.see('Enter the email you signed up with');
    // The user's address is <username>@example.com: the name alone is not an email.
    await ui.type(server.user.username, KEY.enter);
    await ui.see(MESSAGES.email);
    expect(server.calls).not.toContain('resetStart');
    await ui.type('@example.com', KEY.enter);
    const done = await ui.see(MESSAGES.resetStarted);
    expect(done).not.toContain('Email:');
    expect(server.calls).toContain('resetStart');
    // The server issued a reset token for this user and mailed its link.
    const user = await rows(server).selectFrom('users').select('stamp').where('email', '=', server.user.email).executeTakeFirstOrThrow();
    const tokens = await rows(server).selectFrom('reset_tokens').selectAll().where('user_stamp', '=', user.stamp).execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0].used_at).toBeNull();
    const mails = await mailsTo(server.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('/reset-password?token=');
    // A terminal cannot open the email's link: the token it carries is typed on the next screen.
    await ui.type(KEY.enter);
    await ui.see('Link or token from the email:');
    ui.unmount();
  });
});
