// `portal auth sessions` against the real server: lists where the account is signed in with this session marked,
// ends another by its ID (its token stops working at once) and ends every other session.
import { describe, expect, it } from 'vitest';
import { CALLS } from '@portal/core/contract/table';
import { cliFixture } from './harness';

const cli = cliFixture('sessions');
const { run } = cli;
const PW = 'Secret-123!';
const EMAIL = 'sessions@example.com';
/** A sign-in elsewhere (another browser): its token. */
async function signInElsewhere(agent: string): Promise<string> {
  const res = await fetch(new URL(CALLS.login.path, cli.server.url), {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${EMAIL}:${PW}`).toString('base64')}`, 'user-agent': agent },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}
const status = async (token: string) =>
  (await fetch(new URL(CALLS.sessionList.path, cli.server.url), { headers: { authorization: `Bearer ${token}` } })).status;

describe('portal auth sessions', () => {
  it('lists the sessions, ends one by ID and ends every other', async () => {
    const up = await run(
      ['signup', '--email', EMAIL, '--username', 'sessions_user', '--name', 'Session Labs', '--password-stdin', '--accept-terms'],
      { stdin: `${PW}\n` },
    );
    expect(up.code, up.stderr).toBe(0);
    const phone = await signInElsewhere('Phone/2.0');
    const tablet = await signInElsewhere('Tablet/3.0');

    const listed = await run(['auth', 'sessions', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const list = JSON.parse(listed.stdout) as Array<{ id: string; current: boolean; userAgent: string | null; address: string }>;
    expect(list).toHaveLength(3);
    expect(list.filter((x) => x.current)).toHaveLength(1);
    const other = list.find((x) => x.userAgent === 'Phone/2.0')!;
    expect(other.address).toMatch(/127\.0\.0\.1|::1/);

    const table = await run(['auth', 'sessions']);
    expect(table.stdout).toContain('(this session)');
    expect(table.stdout).toContain('Tablet/3.0');

    const ended = await run(['auth', 'sessions', '--end', other.id]);
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stderr + ended.stdout).toContain(`Ended session ${other.id}`);
    expect(await status(phone)).toBe(401);
    expect(await status(tablet)).toBe(200);

    const missing = await run(['auth', 'sessions', '--end', other.id]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('Session not found');

    const others = await run(['auth', 'sessions', '--end-others', '--json']);
    expect(others.code, others.stderr).toBe(0);
    expect(JSON.parse(others.stdout)).toEqual({ ended: 1 });
    expect(await status(tablet)).toBe(401);
    const left = JSON.parse((await run(['auth', 'sessions', '--json'])).stdout) as Array<{ current: boolean }>;
    expect(left).toEqual([expect.objectContaining({ current: true })]);
  });
});
