// The built `portal` when the network misbehaves: a server that accepts and never answers, a closed port, and a second
// server that must never receive the token issued by the first.
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { freePort, localServers, portal, startServer, type Started } from './harness';

/** A token's shape (a JWT whose claims read) that no server issued: PORTAL_TOKEN must look like a token to be sent. */
const SHAPED_TOKEN = 'eyJhbGciOiJub25lIn0.eyJlbWFpbCI6Im5ldEBleGFtcGxlLmNvbSJ9.sig';

let server: Started;
let home: string;
const helpers = localServers();
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = await startServer();
  home = await mkdtemp(join(tmpdir(), 'portal-net-'));
  const up = await portal(
    home,
    server.url,
    ['signup', '--email', 'net@example.com', '--username', 'net_user', '--name', 'Network Co', '--password-stdin', '--accept-terms'],
    { stdin: 'Secret-123!\n' },
  );
  if (up.code !== 0) throw new Error(up.stderr);
});
afterAll(async () => {
  helpers.close();
  await server?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('portal on a bad network', () => {
  it('a second server never receives the token: Token missing, exit 4, nothing sent', async () => {
    const other = await helpers.listen((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    for (const args of [['projects', 'list'], ['api', '/api/user/permission'], ['whoami']]) {
      const r = await portal(home, other, args);
      expect(r.code, args.join(' ')).toBe(4);
      expect(r.stderr.trim()).toBe(`${MESSAGES.tokenMissing}: sign in to ${other} with portal login --api ${other}`);
    }
    expect(seen.filter((h) => h.authorization)).toEqual([]);
    expect((await portal(home, server.url, ['projects', 'list'])).code).toBe(0);
  });

  it('a silent server: timed out after PORTAL_TIMEOUT / --timeout seconds, exit 1', async () => {
    const silent = await helpers.listen(() => {});
    const started = Date.now();
    const r = await portal(home, silent, ['projects', 'list', '--timeout', '1'], { env: { PORTAL_TOKEN: SHAPED_TOKEN } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`${MESSAGES.fetchPermissions}: ${MESSAGES.timedOut(silent, 1)}`);
    expect(Date.now() - started).toBeLessThan(6000);
    const login = await portal(home, silent, ['login', '--email', 'net@example.com', '--password-stdin'], {
      stdin: 'Secret-123!',
      env: { PORTAL_TIMEOUT: '1' },
    });
    expect(login.stderr.trim()).toBe(MESSAGES.timedOut(silent, 1));
  });

  it('a closed port: cannot reach, said as such (not Invalid credentials), exit 1', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const login = await portal(home, closed, ['login', '--email', 'net@example.com', '--password-stdin'], { stdin: 'Secret-123!' });
    expect(login.code).toBe(1);
    expect(login.stderr.trim()).toBe(MESSAGES.cannotReach(closed, 'connection refused'));
    expect(login.stderr).not.toContain(MESSAGES.invalidCredentials);
  });
});
