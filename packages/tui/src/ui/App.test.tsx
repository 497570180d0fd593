import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { seedEmptyProject, withTestApi } from '@portal/testkit/api';
import { canLogIn, resetToken } from '@portal/testkit/seed';
import { KEY, renderUi, resize } from '../../test/ui';

const server = withTestApi({ worker: false });
const NAME60 = 'A project named with exactly sixty characters, to be cut ok!';
const PGDN = '\u001B[6~';
const END = '\u001B[F';
const HOME = '\u001B[H';
const CTRL_O = '\u000F';

/** Every line of the last frame fits the width. */
const widest = (frame: string | undefined) => Math.max(...(frame ?? '').split('\n').map((l) => [...l].length));

describe('the terminal UI fits any terminal', { timeout: 60_000 }, () => {
  it('a 60-row list windows around the selection at 80x24 and 200x50, every line cut to the width', async () => {
    expect(NAME60).toHaveLength(60);
    for (let i = 1; i <= 59; i++) await seedEmptyProject(server, { name: `Project ${String(i).padStart(2, '0')}` });
    await seedEmptyProject(server, { name: NAME60 });
    const ui = renderUi(server, `/client/${server.user.client}/projects`, { size: { columns: 80, rows: 24 } });
    // Newest first: the 60-character name (made last) is the first row, whole: below 100 columns the side menu folds
    // away, and the counts and the time give their width to the name first.
    let frame = await ui.see(/1-15 of 60/);
    expect(frame).toContain(`› ${NAME60}`);
    expect(frame).toContain('Project 46');
    expect(frame).not.toContain('Project 45');
    expect(widest(ui.lastFrame())).toBeLessThanOrEqual(80);
    expect((ui.lastFrame() ?? '').split('\n').length).toBeLessThanOrEqual(24);
    await ui.type(PGDN);
    frame = await ui.see(/› Project 45/);
    await ui.type(END);
    frame = await ui.see(/46-60 of 60/);
    expect(frame).toMatch(/› Project 01/);
    // The title and the headers stay on screen.
    expect(frame).toMatch(/^Portal · My Account/);
    expect(frame).toContain('Name');
    expect(widest(ui.lastFrame())).toBeLessThanOrEqual(80);
    // A bigger window shows more rows, and the whole name once it is in view.
    resize(ui.stdout, { columns: 200, rows: 50 });
    frame = await ui.see(/20-60 of 60/);
    await ui.type(HOME);
    await ui.see(/1-41 of 60/);
    expect(ui.lastFrame()).toContain(NAME60);
    expect(widest(ui.lastFrame())).toBeLessThanOrEqual(200);
    ui.unmount();
  });

  it('keys typed before the first frame and bursts of Backspace are all applied, in order', async () => {
    const ui = renderUi(server, '/', { signedIn: false });
    await ui.see('Email:');
    // A typed-ahead sign-in arrives as one chunk (email, a slip corrected with Backspaces, Tab, password, Enter): in a
    // real terminal it waits in stdin's buffer, unechoed (raw mode from the start), until the form reads it.
    ui.stdin.write(`${server.user.email}xx\u007F\u007F\t${server.user.password}\r`);
    await ui.see('Analytical Engines');
    expect(ui.api.tokens.get()).toBeTruthy();
    ui.unmount();
  });

  it('a screen opened signed out shows the login, and signing in opens that screen', async () => {
    await seedEmptyProject(server, { name: 'Asked for before signing in' });
    const ui = renderUi(server, `/client/${server.user.client}/projects`, { signedIn: false });
    let frame = await ui.see('Email:');
    expect(frame).toContain(MESSAGES.tokenMissing);
    await ui.type(server.user.email, KEY.tab, server.user.password, KEY.enter);
    frame = await ui.see('Asked for before signing in');
    expect(frame).toMatch(/Projects/);
    expect(ui.api.tokens.get()).toBeTruthy();
    ui.unmount();
  });

  it('Ctrl+O reaches the menu from a form; Esc goes back past a form already submitted', async () => {
    const ui = renderUi(server, `/client/${server.user.client}/integrations`);
    await ui.see(MESSAGES.integrationNotFound);
    await ui.type('n');
    await ui.see('Create');
    await ui.type(CTRL_O);
    let frame = await ui.see('↑↓ move · Enter open');
    expect(frame).not.toMatch(/Name: \S*o/);
    await ui.type(CTRL_O);
    await ui.type('OpenAI prod', KEY.tab, KEY.tab, 'sk-test-token', KEY.enter);
    frame = await ui.see(/OpenAI prod\s+i_/);
    // Back from the list does not reopen the submitted form.
    await ui.type(KEY.esc);
    frame = await ui.see(/Portal · My Account › Analytical Engines$|Projects|No Projects Found|Your Models|My Account/);
    expect(frame).not.toContain('Create Integration');
    ui.unmount();
  });

  it("the reset screen takes the mail's whole link", async () => {
    const token = await resetToken(server, server.user);
    const reset = renderUi(server, '/reset-password', { signedIn: false });
    await reset.see('Link or token from the email');
    await reset.type(`<${server.url}/reset-password?token=${token}>`, KEY.tab, 'Better-Pass-1', KEY.tab, 'Better-Pass-1', KEY.enter);
    await reset.see(MESSAGES.passwordChanged);
    expect(await canLogIn(server, server.user.email, 'Better-Pass-1')).toBe(true);
    reset.unmount();
  });

  it('Tab completes paths (with spaces) in the upload field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portal-complete-'));
    try {
      await mkdir(join(dir, 'my data'));
      await writeFile(join(dir, 'my data', 'rows.json'), '[[1,2,3,4]]');
      const { project } = await import('@portal/testkit/api').then((m) => m.seedProject(server));
      process.chdir(dir);
      const ui = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/uploads`);
      await ui.see(/data\.json\s+Ready/);
      await ui.type('n', 'my', KEY.tab);
      await ui.see("'my data/'");
      await ui.type('r', KEY.tab);
      await ui.see("'my data/rows.json'");
      ui.unmount();
    } finally {
      process.chdir(tmpdir());
      await rm(dir, { recursive: true, force: true });
    }
  });
});
