// The built `portal` interactive UI in a real terminal (a pty through `script`) against the real server.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { PORTAL, fitArgs, portal, startServer, type Started } from './harness';

let server: Started;
let home: string;

beforeAll(async () => {
  server = await startServer();
  home = await mkdtemp(join(tmpdir(), 'portal-tui-'));
  const up = await portal(
    home,
    server.url,
    ['signup', '--email', 'tui@example.com', '--username', 'tui_user', '--name', 'Terminal Works', '--password-stdin', '--accept-terms'],
    { stdin: 'Secret-123!\n' },
  );
  if (up.code !== 0) throw new Error(up.stderr);
});
afterAll(async () => {
  await server?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** Starts the UI in a pty; `screen()` is what has been drawn so far with escape sequences removed. */
function startUi() {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    PORTAL_API: server.url,
    TERM: 'xterm-256color',
  };
  const child = spawn('script', ['-qfc', `stty cols 110 rows 40; exec ${process.execPath} ${PORTAL}`, '/dev/null'], {
    env,
    cwd: home,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  // eslint-disable-next-line no-control-regex
  const strip = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, '');
  const screen = () => strip(out);
  // What is on the screen now: Ink draws each frame after erasing the one before, ending the erase at column 1.
  const frame = () => {
    const at = out.lastIndexOf('\x1b[G');
    return strip(at < 0 ? out : out.slice(at));
  };
  return {
    child,
    screen,
    raw: () => out,
    async see(text: string, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (!screen().includes(text)) {
        if (Date.now() > end) throw new Error(`Did not see ${text} in:\n${screen().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 150));
    },
    /** Waits until the frame on the screen now meets `ok`. */
    async until(what: string, ok: (frame: string) => boolean, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (!ok(frame())) {
        if (Date.now() > end) throw new Error(`Did not see ${what} in:\n${frame()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async keys(...ks: string[]) {
      for (const k of ks) {
        child.stdin.write(k);
        await new Promise((r) => setTimeout(r, k === '\u001B' ? 250 : 120));
      }
    },
    exited: new Promise<number>((r) => child.on('close', (code) => r(code ?? -1))),
  };
}

describe('portal interactive UI against the real server', () => {
  it('opens My Account, creates a project in the Projects screen, and quits with q', async () => {
    const ui = startUi();
    await ui.see('Terminal Works');
    await ui.keys('\r');
    await ui.see(MESSAGES.noProjects);
    await ui.keys('n');
    await ui.see('Name:');
    await ui.keys('From the terminal', '\r');
    // The list, not the form still showing what was typed: a q typed into the form would never quit.
    await ui.until('the new project in the list', (f) => f.includes('From the terminal') && !f.includes('Name:'));
    await ui.keys('q');
    expect(await ui.exited).toBe(0);
    const list = await portal(home, server.url, ['projects', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((b: { name: string }) => b.name)).toEqual(['From the terminal']);
  });

  it('opens a project with a finished request, shows its details and downloads the results', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => [i % 5, (i * 7) % 9, (i * 3) % 4, (i % 5) / 4]);
    await writeFile(join(home, 'data.json'), JSON.stringify(rows));
    const up = await portal(home, server.url, ['uploads', 'push', 'data.json', '--wait', '--json']);
    expect(up.code, up.stderr).toBe(0);
    const fit = await portal(home, server.url, fitArgs(JSON.parse(up.stdout).stamp, 'Terminal fit', '--wait'));
    expect(fit.code, fit.stderr).toBe(0);

    const ui = startUi();
    await ui.see('Terminal Works');
    await ui.keys('\r');
    await ui.see('From the terminal');
    // The project has an upload now, so Open goes to its requests.
    await ui.keys('\r');
    await ui.see('Terminal fit');
    await ui.see('generate');
    await ui.keys('/', 'generate', '\r', '\r');
    await ui.see('Function:');
    await ui.see('Download Results');
    await ui.keys('\r');
    await ui.see('Saved');
    await ui.keys('q');
    expect(await ui.exited).toBe(0);
    const saved = (await readdir(home)).filter((f) => /^ensemble_result_.*\.json$/.test(f));
    expect(saved).toHaveLength(1);
    expect(JSON.parse(await readFile(join(home, saved[0]), 'utf8'))).toBeTruthy();
  });

  it('opens a shrink quote from the requests list: invoice, billing and the payment portal link (paid in a browser)', async () => {
    await writeFile(
      join(home, 'model.py'),
      'import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(100, 10)\n',
    );
    const py = await portal(home, server.url, ['uploads', 'push', 'model.py', '--wait', '--json']);
    expect(py.code, py.stderr).toBe(0);
    const made = await portal(home, server.url, [
      'shrink',
      '--upload',
      JSON.parse(py.stdout).stamp,
      '--name',
      'Terminal shrink',
      '--yes',
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const q = JSON.parse(made.stdout);

    const ui = startUi();
    await ui.see('Terminal Works');
    await ui.keys('\r');
    await ui.see('From the terminal');
    await ui.keys('\r');
    await ui.see('Terminal shrink');
    await ui.keys('/', 'Terminal shrink', '\r', '\r');
    await ui.see('Invoice amount');
    await ui.see(q.quote.record.invoiceNum);
    await ui.see('Free credits:');
    // The signed link is longer than the terminal is wide: its start is on the line.
    await ui.see(`Payment portal: ${q.billing.portalUrl.slice(0, 40)}`);
    await ui.keys('q');
    expect(await ui.exited).toBe(0);
  });

  it('API key details: the installer from core, and t copies the token with OSC 52 (works over SSH) and prints it', async () => {
    const made = await portal(home, server.url, ['keys', 'create', '--name', 'Terminal key', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const key = JSON.parse(made.stdout);
    const ui = startUi();
    await ui.see('Terminal Works');
    await ui.keys('\r');
    await ui.see('From the terminal');
    // The side menu: Accounts, Get started, Compare Plans, Projects, API Keys.
    await ui.keys('\t', '\u001B[B', '\u001B[B', '\u001B[B', '\u001B[B', '\r');
    await ui.see('Terminal key');
    await ui.keys('\r');
    await ui.see('Installer (Linux 64-bit)');
    await ui.see('pip install');
    await ui.keys('t');
    await ui.see('Token [Copied]');
    expect(ui.raw()).toContain(`\x1b]52;c;${Buffer.from(key.token).toString('base64')}\x07`);
    await ui.keys('q');
    expect(await ui.exited).toBe(0);
  });
});
