// `portal account` against the real server: the password change (both passwords from standard input), the email
// change confirmed with the mailed link, the export to a file or standard output, and deletion (confirmation
// required without a terminal, the password and a two-factor code from flags and standard input).
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { ACCOUNT_MESSAGES, EMAIL_CONFIRM_PATH, MESSAGES, SECURITY_MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { mailsTo, waitFor } from '@portal/testkit/harness';
import { cliFixture } from './harness';

const cli = cliFixture('account');
const { run, post, stored } = cli;
const PW = 'Secret-123!';
const NEW_PW = 'An0ther-secret!';
const code = (secret: string, steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
const mailAbout = (email: string, subject: string) =>
  waitFor(async () => (await mailsTo(join(cli.server.dir, 'data'), email)).find((m) => m.includes(`Subject: ${subject}`)));
async function signUp(email: string, username: string) {
  const up = await run(
    ['signup', '--email', email, '--username', username, '--name', `${username} Labs`, '--password-stdin', '--accept-terms'],
    {
      stdin: `${PW}\n`,
    },
  );
  expect(up.code, up.stderr).toBe(0);
}

describe('portal account', () => {
  it('changes the password with both passwords from standard input, and refuses a weak one by the sign-up rule', async () => {
    await signUp('pw@example.com', 'pw_user');
    const weak = await run(['account', 'password', '--password-stdin'], { stdin: `${PW}\nweak\n` });
    expect(weak.code).not.toBe(0);
    expect(weak.stderr).toContain(MESSAGES.password);
    const wrong = await run(['account', 'password', '--password-stdin'], { stdin: `Not-the-one1!\n${NEW_PW}\n` });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain(ACCOUNT_MESSAGES.passwordWrong);
    const ok = await run(['account', 'password', '--password-stdin', '--json'], { stdin: `${PW}\n${NEW_PW}\n` });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ended: 0 });
    expect(ok.stderr).toContain(ACCOUNT_MESSAGES.passwordChanged);
    // Still signed in here; the new password signs in.
    expect((await run(['account', 'show'])).stdout).toContain('pw@example.com');
    const again = await run(['login', '--email', 'pw@example.com', '--password-stdin'], { stdin: `${NEW_PW}\n` });
    expect(again.code, again.stderr).toBe(0);
    // Without a terminal and without --password-stdin it says which flag to use.
    const noTty = await run(['account', 'password']);
    expect(noTty.code).not.toBe(0);
    expect(noTty.stderr).toContain('--password-stdin is required');
  });

  it('changes the email address through the mailed link, and shows the change waiting', async () => {
    await signUp('old@example.com', 'email_user');
    const asked = await run(['account', 'email', 'new@example.com', '--password-stdin'], { stdin: `${PW}\n` });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toContain(ACCOUNT_MESSAGES.emailSent('new@example.com'));
    const shown = await run(['account', 'show']);
    expect(shown.stdout).toContain('to new@example.com, waiting for its link');
    const mail = await mailAbout('new@example.com', 'Confirm your new email address');
    const link = new RegExp(`\\S+${EMAIL_CONFIRM_PATH}\\?token=\\S+`).exec(mail)![0];
    await mailAbout('old@example.com', 'A change of your email address was asked');

    const confirmed = await run(['account', 'confirm-email', link]);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stderr).toContain(ACCOUNT_MESSAGES.emailConfirmed('new@example.com'));
    const twice = await run(['account', 'confirm-email', link]);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toContain(ACCOUNT_MESSAGES.emailLinkInvalid);
    const json = JSON.parse((await run(['account', 'show', '--json'])).stdout);
    expect(json).toMatchObject({ email: 'new@example.com', pendingEmail: null });

    // An address in use is refused with a sentence; a cancelled change leaves nothing waiting.
    await signUp('taken@example.com', 'taken_user');
    const taken = await run(['account', 'email', 'NEW@example.com', '--password-stdin'], { stdin: `${PW}\n` });
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain(ACCOUNT_MESSAGES.emailTaken);
    await run(['account', 'email', 'later@example.com', '--password-stdin'], { stdin: `${PW}\n` });
    const cancelled = await run(['account', 'email', '--cancel']);
    expect(cancelled.stderr).toContain(ACCOUNT_MESSAGES.emailCancelled);
  });

  it('exports everything to a file (no secret in it) or to standard output', async () => {
    await signUp('export@example.com', 'export_user');
    const project = await run(['projects', 'create', '--name', 'Exported project']);
    expect(project.code, project.stderr).toBe(0);
    const saved = await run(['account', 'export', '--output', 'mine.json', '--json']);
    expect(saved.code, saved.stderr).toBe(0);
    const summary = JSON.parse(saved.stdout);
    expect(summary).toMatchObject({ file: join(cli.home, 'mine.json'), projects: 1, clients: 1, truncated: [] });
    const data = JSON.parse(await readFile(join(cli.home, 'mine.json'), 'utf8'));
    expect(data.projects[0].name).toBe('Exported project');
    expect((await stat(join(cli.home, 'mine.json'))).mode & 0o077).toBe(0);
    const token = (await stored())!;
    expect(JSON.stringify(data)).not.toContain(token);
    const piped = await run(['account', 'export', '-o', '-']);
    expect(JSON.parse(piped.stdout).user.email).toBe('export@example.com');
    const byName = await run(['account', 'export']);
    expect(byName.stderr).toMatch(/portal-export_user-\d{4}-\d\d-\d\d\.json/);
  });

  it('deletes the account only when confirmed, with the password and the two-factor code', async () => {
    await signUp('delete@example.com', 'delete_user');
    const token = (await stored())!;
    const { secret } = (await post(CALLS.otpSetup.path, token)).otp;
    await post(CALLS.otpEnable.path, token, { code: await code(secret, 0) });

    const unconfirmed = await run(['account', 'delete', '--password-stdin'], { stdin: `${PW}\n` });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain(ACCOUNT_MESSAGES.deleteNotConfirmed);
    const noCode = await run(['account', 'delete', '--password-stdin', '--yes'], { stdin: `${PW}\n` });
    expect(noCode.code).not.toBe(0);
    expect(noCode.stderr).toContain('--otp is required');
    const badCode = await run(['account', 'delete', '--password-stdin', '--yes', '--otp', 'nope'], { stdin: `${PW}\n` });
    expect(badCode.stderr).toContain(SECURITY_MESSAGES.otpFormat);
    // The code on the line after the password.
    const done = await run(['account', 'delete', '--password-stdin', '--yes', '--json'], { stdin: `${PW}\n${await code(secret, 1)}\n` });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain(ACCOUNT_MESSAGES.deleted);
    expect(JSON.parse(done.stdout).ok).toBe(true);
    expect(await stored()).toBeUndefined();
    const login = await run(['login', '--email', 'delete@example.com', '--password-stdin'], { stdin: `${PW}\n` });
    expect(login.code).not.toBe(0);
    expect(await mailAbout('delete@example.com', 'Your account was deleted')).toBeTruthy();
  });
});
