// `portal login` for an account with two-factor sign-in: --otp CODE, --otp-stdin (after the password), a recovery
// code, and a refusal that says what to do when no code can be asked for.
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { SECURITY_MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { cliFixture } from './harness';

const cli = cliFixture('otp');
const { run, post, stored } = cli;
const PW = 'Secret-123!';
const EMAIL = 'otp@example.com';
/** The authenticator's code `steps` time steps from now (a code's step is accepted once). */
const code = (secret: string, steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

describe('portal login with two-factor sign-in', () => {
  it('asks for the second step and signs in with --otp, --otp-stdin or a recovery code', async () => {
    const up = await run(
      ['signup', '--email', EMAIL, '--username', 'otp_user', '--name', 'Otp Labs', '--password-stdin', '--accept-terms'],
      {
        stdin: `${PW}\n`,
      },
    );
    expect(up.code, up.stderr).toBe(0);
    const token = (await stored())!;
    const { secret } = (await post(CALLS.otpSetup.path, token)).otp;
    const { recovery } = (await post(CALLS.otpEnable.path, token, { code: await code(secret, 0) })).otp;
    expect(recovery).toHaveLength(10);
    expect((await run(['logout'])).code).toBe(0);

    // No terminal and no code: refused, naming the flag, and not signed in.
    const none = await run(['login', '--email', EMAIL, '--password-stdin'], { stdin: `${PW}\n` });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('--otp');
    expect((await run(['projects', 'list'])).code).toBe(4);

    const wrong = await run(['login', '--email', EMAIL, '--password-stdin', '--otp', 'zzzzz-zzzzz'], { stdin: `${PW}\n` });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(SECURITY_MESSAGES.otpInvalid);

    const withFlag = await run(['login', '--email', EMAIL, '--password-stdin', '--otp', await code(secret, 1)], { stdin: `${PW}\n` });
    expect(withFlag.code, withFlag.stderr).toBe(0);
    expect(withFlag.stderr).toContain(`Signed in as ${EMAIL} (Otp Labs)`);
    expect((await run(['projects', 'list'])).code).toBe(0);

    const fromStdin = await run(['login', '--email', EMAIL, '--password-stdin', '--otp-stdin'], { stdin: `${PW}\n${recovery[0]}\n` });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    // The recovery code is spent.
    const again = await run(['login', '--email', EMAIL, '--password-stdin', '--otp-stdin'], { stdin: `${PW}\n${recovery[0]}\n` });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(SECURITY_MESSAGES.otpInvalid);
  });
});
