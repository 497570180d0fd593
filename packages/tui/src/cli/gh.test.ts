// gh's habits for scripts: auth token/status/switch, PORTAL_TOKEN, logout of the default, --json fields, --limit,
// portal api --paginate/-H/-i, and completion after global options and of the server's ids and names.
import { execFileSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { portal, signedIn } from '../../test/cli';
import { withTestApi } from '@portal/testkit/api';
import { memoryStore } from '../store';
import { closedPort, recordingServer, silentServer } from '../../test/servers';

const server = withTestApi({ worker: false });
let store: ReturnType<typeof memoryStore>;
beforeEach(() => {
  store = signedIn(server);
});

/** A session token's shape for a server the test never calls (auth switch and status only read it). */
const tokenFor = (email: string) =>
  `e30.${Buffer.from(JSON.stringify({ email, exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')}.sig`;

const create = async (name: string) => {
  const r = await portal(['projects', 'create', '--name', name, '--json'], { store });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).stamp as string;
};

describe('gh habits', { timeout: 30_000 }, () => {
  it('portal auth token prints the current token; PORTAL_TOKEN wins; not signed in exits 4', async () => {
    const r = await portal(['auth', 'token'], { store });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${server.user.token}\n`);
    const env = await portal(['auth', 'token'], { store: memoryStore(), env: { PORTAL_TOKEN: server.user.token } });
    expect(env.stdout).toBe(`${server.user.token}\n`);
    const none = await portal(['auth', 'token', '--api', server.url], { store: memoryStore() });
    expect(none.code).toBe(4);
    expect(none.stdout).toBe('');
  });

  it('auth status says when PORTAL_TOKEN is in use, and a malformed one is named (exit 4, nothing sent)', async () => {
    const r = await portal(['auth', 'status'], { store: memoryStore({ api: server.url }), env: { PORTAL_TOKEN: server.user.token } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Using the token in PORTAL_TOKEN for ${server.url} (${server.user.email}`);
    expect(r.stdout).toMatch(/\*\s+http:\/\/127\.0\.0\.1:\d+\s+.*PORTAL_TOKEN/);
    const json = await portal(['auth', 'status', '--json'], { store, env: { PORTAL_TOKEN: server.user.token } });
    expect(JSON.parse(json.stdout).map((i: { source: string }) => i.source)).toEqual(['PORTAL_TOKEN', 'config']);

    const before = server.calls.length;
    for (const args of [
      ['auth', 'status'],
      ['projects', 'list'],
    ]) {
      const bad = await portal(args, { store, env: { PORTAL_TOKEN: 'not a token' } });
      expect(bad.code).toBe(4);
      expect(bad.stderr).toContain('PORTAL_TOKEN is not a valid token');
    }
    expect(server.calls.length).toBe(before);
    // Well-formed but refused: the message names the variable rather than asking for portal login.
    const refused = await portal(['projects', 'list'], {
      store: memoryStore({ api: server.url }),
      env: { PORTAL_TOKEN: tokenFor('x@example.com') },
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('PORTAL_TOKEN was refused');
  });

  it('auth switch changes the default server; logout of the default picks another signed-in server, or none, and says which', async () => {
    const other = 'http://staging.example.test:8443';
    store.host(other).tokens.set(tokenFor('ada@staging.example'));
    const sw = await portal(['auth', 'switch'], { store });
    expect(sw.code, sw.stderr).toBe(0);
    expect(sw.stderr).toContain(`The default server is now ${other} (ada@staging.example)`);
    expect(store.saved.api).toBe(other);
    const back = await portal(['auth', 'switch', '--api', server.url], { store });
    expect(back.code, back.stderr).toBe(0);
    expect(store.saved.api).toBe(server.url);
    const unknown = await portal(['auth', 'switch', '--api', 'http://nowhere.example.test'], { store });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('Not signed in to http://nowhere.example.test');

    const out = await portal(['logout'], { store });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(`Signed out of ${server.url}`);
    expect(out.stderr).toContain(`The default server is now ${other}`);
    expect(store.saved.api).toBe(other);
    // The last one: the default becomes none, and a next command says how to sign in rather than using a dead default.
    const last = await portal(['logout'], { store });
    expect(last.stderr).toContain('No other server is signed in: the default is now none');
    expect(store.saved.api).toBeUndefined();
    expect(store.hosts()).toEqual([]);
  });

  it('"Error fetching permissions: Cannot reach ..." has its separator', async () => {
    const down = await closedPort();
    const r = await portal(['accounts', 'list', '--api', down], { store: memoryStore({ api: down, token: server.user.token }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^${MESSAGES.fetchPermissions}: Cannot reach `));
  });

  it('--json a,b,c prints only those fields; --json alone prints all; an unknown field lists the available ones', async () => {
    const stamp = await create('Alpha');
    const some = await portal(['projects', 'list', '--json', 'stamp,name'], { store });
    expect(some.code, some.stderr).toBe(0);
    expect(JSON.parse(some.stdout)).toEqual([{ stamp, name: 'Alpha' }]);
    const one = await portal(['projects', 'list', '--json', 'name'], { store });
    expect(JSON.parse(one.stdout)).toEqual([{ name: 'Alpha' }]);
    const eq = await portal(['whoami', '--json=email'], { store });
    expect(JSON.parse(eq.stdout)).toEqual({ email: server.user.email });
    const all = await portal(['projects', 'list', '--json'], { store });
    expect(Object.keys(JSON.parse(all.stdout)[0]).length).toBeGreaterThan(2);
    const bad = await portal(['projects', 'list', '--json', 'stamp,colour'], { store });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown JSON field: colour');
    expect(bad.stderr).toContain('  name');
    // A word after --json that no entity has as a field stays the command's argument.
    const shown = await portal(['projects', 'open', '--json', stamp], { store });
    expect(shown.code, shown.stderr).toBe(0);
  });

  it('--limit N on every list', async () => {
    for (const name of ['One', 'Two', 'Three']) await create(name);
    const r = await portal(['projects', 'list', '--limit', '2', '--json'], { store });
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    const tty = await portal(['projects', 'list', '--limit', '1'], { store, tty: true });
    expect(tty.stdout.trim().split('\n')).toHaveLength(2);
    expect(tty.stderr).toContain('Showing 1 of 3: --limit 3 shows all.');
    expect((await portal(['projects', 'list', '--limit', '0'], { store })).code).toBe(2);
    const help = await portal(['help'], { store });
    expect(help.code).toBe(0);
    for (const noun of ['accounts', 'keys', 'integrations', 'projects', 'uploads', 'models', 'runs', 'members', 'invites']) {
      const h = await portal([noun, 'list', '--help']);
      expect(h.stdout, noun).toContain('--limit <n>');
    }
  });

  it('portal api --paginate follows next and prints one array; -H sends a header; -i prints the status line and headers', async () => {
    // Three projects made are three lines of the audit log, read one a page.
    for (let i = 0; i < 3; i++) await create(`Paged ${i}`);
    const client = server.user.client;
    const paged = await portal(['api', '/api/client/audit', '-f', `client=${client}`, '-F', 'limit=1', '--paginate'], { store });
    expect(paged.code, paged.stderr).toBe(0);
    const entries = JSON.parse(paged.stdout);
    expect(Array.isArray(entries)).toBe(true);
    const whole = await portal(['audit', '--limit', '200', '--json'], { store });
    expect(entries.length).toBe(JSON.parse(whole.stdout).length);
    expect(entries.length).toBeGreaterThan(2);

    const echo = await recordingServer(200, { ok: true }, { 'x-answer': 'yes' });
    try {
      const s = memoryStore({ api: echo.url, token: server.user.token });
      const r = await portal(['api', '-i', '-H', 'X-Trace: abc 123', '/api/user/permission'], { store: s });
      expect(r.code, r.stderr).toBe(0);
      expect(echo.seen[0].headers['x-trace']).toBe('abc 123');
      expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\n/);
      expect(r.stdout).toContain('x-answer: yes\n');
      expect(r.stdout).toMatch(/\n\n\{\n {2}"ok": true\n\}\n$/);
    } finally {
      await echo.close();
    }
    expect((await portal(['api', '-H', 'no colon', '/api/user/permission'], { store })).code).toBe(2);
    expect((await portal(['api', '-X', 'POST', '--paginate', '/api/bucket/name'], { store })).code).toBe(2);
  });

  it('completion: after global options with values, and ids and names from the server', async () => {
    const stamp = await create('Churn model');
    const values = await portal(['__complete', 'projects'], { store });
    expect(values.code, values.stderr).toBe(0);
    expect(values.stdout).toBe(`${stamp}\tChurn model\n`);
    // A server that never answers: nothing offered, within the time limit.
    const silent = await silentServer();
    try {
      const started = Date.now();
      const none = await portal(['__complete', 'projects', '--api', silent.url], {
        store: memoryStore({ api: silent.url, token: server.user.token }),
      });
      expect(none.stdout).toBe('');
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await silent.close();
    }

    const script = (await portal(['completion', 'bash'])).stdout;
    // `portal` inside the script is a stand-in that records what it was asked and answers like __complete.
    const complete = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `${script}\nportal() { echo "$*" > "$CALLED"; printf 'p_1\\tChurn model\\np_2\\tOther\\n'; }\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _portal; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8', env: { ...process.env, CALLED: '/dev/null' } },
      )
        .trim()
        .split('\n');
    expect(complete('portal --api http://x:1 pro')).toEqual(['projects']);
    expect(complete('portal --timeout 5 --client C1 projects re')).toEqual(['rename', 'remove']);
    expect(complete('portal projects rename p_')).toEqual(['p_1', 'p_2']);
    expect(complete('portal projects rename Ch')).toEqual(['Churn\\ model']);
    expect(complete('portal uploads push --project ""')).toEqual(['p_1', 'Churn\\ model', 'p_2', 'Other']);
    const fish = (await portal(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c portal -l project -x -a '(portal __complete projects 2>/dev/null)'");
  });

  it('portal ui takes a web path or URL of the one screen table; anything else is a usage error; it needs a terminal', async () => {
    const bad = await portal(['ui', '/client/x/nowhere'], { store });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"/client/x/nowhere" is not a page of the portal');
    const piped = await portal(['ui', `https://portal.example.com/client/${server.user.client}/projects`], { store });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('needs a terminal');
  });
});
