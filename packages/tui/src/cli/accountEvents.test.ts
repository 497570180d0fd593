// `portal account events` against the real server: a sign-in from an address the account has not used and a password
// change show as sentences, newest first, in the table and in --json, and --limit cuts the list.
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@portal/core';
import { portal, signedIn } from '../../test/cli';
import { withTestApi } from '@portal/testkit/api';

// The address a sign-in comes from is the one a proxy in front names (X-Forwarded-For), as behind nginx.
const server = withTestApi({ worker: false, server: { trustProxy: true } });
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const NEW_PW = 'An0ther-secret!';

describe('portal account events', { timeout: 30_000 }, () => {
  it('lists a sign-in from a new address and a password change, as text and as JSON', async () => {
    const store = signedIn(server);
    expect((await portal(['account', 'events'], { store })).stderr.trim()).toBe(ACCOUNT_MESSAGES.noEvents);

    // A sign-in from an address the account has not signed in from, by a Firefox on Linux.
    const basic = Buffer.from(`${server.user.email}:${server.user.password}`).toString('base64');
    const signin = await fetch(new URL('/api/user/login', server.url), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'user-agent': FIREFOX, 'x-forwarded-for': '203.0.113.7' },
    });
    expect(signin.status).toBe(200);

    const changed = await portal(['account', 'password', '--password-stdin'], { store, stdin: `${server.user.password}\n${NEW_PW}\n` });
    expect(changed.code, changed.stderr).toBe(0);

    const table = await portal(['account', 'events'], { store });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines, table.stdout).toHaveLength(2);
    // Newest first: the password change (which ended the session signed in above), then the sign-in.
    expect(lines[0]).toMatch(/\tChanged the password \(1 other session ended\)$/);
    expect(lines[1]).toMatch(/\tSigned in from a new address \(203\.0\.113\.7, Firefox on Linux\)$/);

    const json = JSON.parse((await portal(['account', 'events', '--json'], { store })).stdout);
    expect(json.map((e: { action: string }) => e.action)).toEqual(['password.change', 'signin.new-address']);
    expect(json[1]).toMatchObject({ detail: FIREFOX, label: 'Signed in from a new address (203.0.113.7, Firefox on Linux)' });
    expect(typeof json[1].at).toBe('number');

    const one = JSON.parse((await portal(['account', 'events', '--json', '--limit', '1'], { store })).stdout);
    expect(one.map((e: { action: string }) => e.action)).toEqual(['password.change']);
  });
});
