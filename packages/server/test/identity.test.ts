// Identity and secrets as an attacker would try them (issue 11): sessions that end on every API process, separate
// keys and their rotation, a private data folder, logs without secrets, links from configuration, member revocation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { lstatSync, readdirSync } from 'node:fs';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ERROR_CODES, MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import {
  call,
  dbKinds,
  freshDataDir,
  mailsTo,
  PASSWORD,
  resetStartWithHost,
  serverRoot,
  sha256,
  signup,
  startPeer,
  startServer,
  testSecret,
  waitFor,
  type TestServer,
} from './harness';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { runAdmin, AdminError } from '../src/admin';
import { processLogger, redactLine } from '../src/redact';

const kinds = await dbKinds();
const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
const login = async (base: string, email: string, password = PASSWORD) => {
  const r = await call(base, 'login', { headers: { authorization: basic(email, password) } });
  expect(r.status).toBe(200);
  return r.body.token as string;
};
/** Every reset link's token mailed to this address so far, oldest first. */
const resetLinks = async (dataDir: string, email: string) =>
  (await mailsTo(dataDir, email)).map((m) => decodeURIComponent(/reset-password\?token=(\S+)/.exec(m)![1]));
const admin = (srv: TestServer, command: string, args: string[]) =>
  runAdmin({ db: srv.built.services.db, config: srv.config, secrets: srv.built.services.secrets }, command, args);

describe.each(kinds)('sessions and members on the %s database', (kind) => {
  // Two API processes on one database where the database allows it (PostgreSQL); the embedded database has one.
  let A: TestServer;
  let B: TestServer;
  beforeAll(async () => {
    A = await startServer(kind);
    B = kind === 'postgres' ? await startPeer(A) : A;
  });
  afterAll(async () => {
    if (B !== A) await B?.close();
    await A?.close();
  });

  it("logout ends the current session on every process; the user's other sessions go on; refresh needs a current session", async () => {
    const U = await signup(A.url, 'out');
    const other = await login(B.url, U.email);
    const refreshed = await call(B.url, 'refresh', { token: U.token });
    expect(refreshed.status).toBe(200);
    const renewed = refreshed.body.token as string;
    expect((await call(B.url, 'permissions', { token: renewed })).status).toBe(200);

    expect((await call(A.url, 'logout', { token: U.token })).body).toEqual({ ok: true });
    // The session is over for the token it was started with and for its refreshed copy, on the other process too.
    for (const token of [U.token, renewed]) {
      for (const srv of [A, B]) {
        const r = await call(srv.url, 'permissions', { token });
        expect([r.status, r.body.error]).toEqual([401, { code: ERROR_CODES.tokenExpired, message: MESSAGES.tokenExpired }]);
        expect((await call(srv.url, 'refresh', { token })).status).toBe(401);
      }
    }
    expect((await call(B.url, 'logout', { token: renewed })).status).toBe(401);
    expect((await call(B.url, 'permissions', { token: other })).status).toBe(200);
  });

  it('a password reset ends every session and every other reset link, on every process', async () => {
    const U = await signup(A.url, 'reset');
    const second = await login(B.url, U.email);
    await call(A.url, 'resetStart', { body: { email: U.email } });
    await call(A.url, 'resetStart', { body: { email: U.email } });
    const [older, newer] = await waitFor(async () => {
      const links = await resetLinks(A.dataDir, U.email);
      return links.length === 2 ? links : null;
    });
    expect((await call(B.url, 'resetFinish', { token: newer, body: { password: 'N3w-password!' } })).status).toBe(200);
    // The older link no longer changes the password, and no session of before the reset works or refreshes.
    expect((await call(A.url, 'resetFinish', { token: older, body: { password: 'Att4cker-pass!' } })).status).toBe(401);
    for (const token of [U.token, second]) {
      for (const srv of [A, B]) {
        expect((await call(srv.url, 'permissions', { token })).status).toBe(401);
        expect((await call(srv.url, 'refresh', { token })).status).toBe(401);
      }
    }
    expect((await call(A.url, 'login', { headers: { authorization: basic(U.email, 'Att4cker-pass!') } })).status).toBe(401);
    expect((await call(B.url, 'permissions', { token: await login(A.url, U.email, 'N3w-password!') })).status).toBe(200);
  });

  it("admin revoke ends a member's access at once, on every process, even with the project list cached", async () => {
    const owner = await signup(A.url, 'owner');
    const member = await signup(A.url, 'member');
    expect(await admin(A, 'grant', [member.email, owner.client])).toContain('is a member of');
    const made = await call(A.url, 'bucketCreate', { token: owner.token, body: { client: owner.client, name: 'Shared' } });
    expect(made.status).toBe(200);
    // The member reads the list through the other process.
    for (let i = 0; i < 2; i++)
      expect((await call(B.url, 'bucketList', { token: member.token, query: { client: owner.client } })).status).toBe(200);

    expect(await admin(A, 'revoke', [member.email, owner.client])).toContain('is no longer a member of');
    expect((await call(B.url, 'bucketList', { token: member.token, query: { client: owner.client } })).status).toBe(403);
    expect(
      (await call(B.url, 'bucketRename', { token: member.token, body: { bucket: made.body.bucket.stamp, name: 'Mine' } })).status,
    ).toBe(403);
    expect((await call(B.url, 'apikeyList', { token: member.token, query: { client: owner.client } })).status).toBe(403);
    const perms = await call(B.url, 'permissions', { token: member.token });
    expect(perms.body.permission.list.map((p: { client: { stamp: string } }) => p.client.stamp)).toEqual([member.client]);
    // The owner keeps the list; an unknown client is still 404; revoking twice says so.
    expect((await call(B.url, 'bucketList', { token: owner.token, query: { client: owner.client } })).status).toBe(200);
    expect((await call(B.url, 'bucketList', { token: member.token, query: { client: 'c_nope' } })).status).toBe(404);
    await expect(admin(A, 'revoke', [member.email, owner.client])).rejects.toThrow(AdminError);
  });
});

describe('links from configuration', () => {
  let srv: TestServer;
  let U: Awaited<ReturnType<typeof signup>>;
  beforeAll(async () => {
    srv = await startServer('embedded', { allowedHosts: ['portal.example'] });
    U = await signup(srv.url, 'links');
  });
  afterAll(async () => {
    await srv?.close();
  });
  const port = () => new URL(srv.url).port;
  const portalUrl = async (host: string) => {
    const r = await srv.built.app.inject({
      method: 'GET',
      url: `${CALLS.billingStatus.path}?client=${U.client}`,
      headers: { host, authorization: `Bearer ${U.token}` },
    });
    return JSON.parse(r.body).billing.portalUrl as string;
  };

  it('a forged Host header gets links on http://localhost:<port>, never the header', async () => {
    expect(await portalUrl('evil.example')).toMatch(new RegExp(`^http://localhost:${port()}/pay/`));
    expect(await portalUrl('evil.example:8080')).toMatch(new RegExp(`^http://localhost:${port()}/pay/`));
    expect((await resetStartWithHost(srv, U.email, 'evil.example')).statusCode).toBe(200);
    const [mail] = await waitFor(async () => {
      const mails = await mailsTo(srv.dataDir, U.email);
      return mails.length ? mails : null;
    });
    expect(mail).toContain(`http://localhost:${port()}/reset-password?token=`);
    expect(mail).not.toContain('evil.example');
  });

  it('localhost, HOST and ALLOWED_HOSTS name the links they were asked on', async () => {
    expect(await portalUrl('portal.example:8443')).toMatch(/^http:\/\/portal\.example:8443\/pay\//);
    expect(await portalUrl('PORTAL.example')).toMatch(/^http:\/\/portal\.example\/pay\//i);
    expect(await portalUrl(`localhost:${port()}`)).toMatch(new RegExp(`^http://localhost:${port()}/pay/`));
    expect(await portalUrl(`127.0.0.1:${port()}`)).toMatch(new RegExp(`^http://127.0.0.1:${port()}/pay/`));
    expect(await portalUrl('portal.example.evil.example')).toMatch(new RegExp(`^http://localhost:${port()}/pay/`));
  });
});

describe('logs without secrets', () => {
  it('the access log, errors and mail notices of real requests carry no token, signature or credential', async () => {
    const lines: string[] = [];
    const dataDir = await freshDataDir();
    const config = loadConfig(
      { JWT_SECRET: testSecret() },
      { dataDir, port: 0, host: '127.0.0.1', logLevel: 'info', authRateLimit: 1000, metricsPort: null, checkAnswers: true },
    );
    const built = await buildApp(config, { logStream: { write: (l: string) => lines.push(l) } });
    try {
      const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
      const U = await signup(base, 'logs');
      const secrets: string[] = [U.token];
      // The reset page visit and the reset mail's notice (the link is in the private outbox, not the log).
      await call(base, 'resetStart', { body: { email: U.email } });
      const [resetToken] = await waitFor(async () => ((await resetLinks(dataDir, U.email)).length ? resetLinks(dataDir, U.email) : null));
      secrets.push(resetToken);
      await fetch(`${base}/reset-password?token=${encodeURIComponent(resetToken)}`);
      // A signed upload URL, sent to (with its signature), and a wrong signature (a 4xx logged with its URL).
      const project = (await call(base, 'bucketCreate', { token: U.token, body: { client: U.client, name: 'Logs' } })).body.bucket.stamp;
      const upload = (await call(base, 'rendCreate', { token: U.token, body: { bucket: project, name: 'a.json' } })).body.rend.stamp;
      const bytes = Buffer.from('[[1,2]]');
      const reg = await call(base, 'uploadRegister', {
        token: U.token,
        body: { rend: upload, name: 'a.json', file: { name: 'a.json', size: bytes.length, checksum: sha256(bytes) } },
      });
      const url = new URL(reg.body.upload.url);
      secrets.push(url.searchParams.get('sig')!);
      await fetch(url, { method: 'PUT', body: bytes });
      await fetch(
        `${url.origin}${url.pathname}?exp=1&sig=${'s'.repeat(43)}&X-Amz-Signature=${'a'.repeat(64)}&X-Amz-Credential=AKIDEXAMPLE`,
        { method: 'PUT', body: bytes },
      );
      secrets.push('s'.repeat(43), 'a'.repeat(64), 'AKIDEXAMPLE');
      // The installer with its secret, an API key token and a cookie on a refused call.
      const key = (await call(base, 'apikeyCreate', { token: U.token, body: { client: U.client, name: 'Logs' } })).body.apikey;
      await fetch(`${base}/api/pack/${key.pack.linux64}`);
      secrets.push(key.pack.linux64.split('/')[1], key.token);
      await fetch(`${base}/api/user/permission?token=${U.token}&key=${key.token}`, {
        headers: { authorization: `Bearer ${key.token}x`, cookie: 'session=cookie-secret-value' },
      });
      secrets.push('cookie-secret-value');
      await waitFor(async () => lines.some((l) => l.includes('/api/pack/')) && lines.some((l) => l.includes('Mail to')));
      const text = lines.join('');
      expect(text).toContain('/reset-password?token=[redacted]');
      // One access line per request, with its status, call and time.
      expect(text).not.toContain('incoming request');
      const visits = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.req.url.startsWith('/reset-password?'));
      expect(visits).toHaveLength(1);
      expect(visits[0]).toMatchObject({ reqId: expect.any(String), res: { statusCode: 200 }, ms: expect.any(Number) });
      expect(text).toContain('sig=[redacted]');
      expect(text).toContain(`/api/pack/${key.clue}/[redacted]/`);
      for (const secret of secrets) expect(text).not.toContain(secret);
    } finally {
      await built.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('one redaction for URLs, headers and free text in any line', () => {
    const line = JSON.stringify({
      msg: 'PUT https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4&X-Amz-Signature=abc123&x-amz-security-token=tok&partNumber=1 failed',
      req: {
        url: '/pay/c_1?exp=1&sig=zzz',
        headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJlMTIz', cookie: 'a=b' },
      },
      err: 'connect postgres://portal:db-pass@db:5432/x with secret=s3cr3t&token=t0k',
    });
    const out = redactLine(line);
    for (const s of ['abc123', 'tok&', 'zzz', 'eyJ', 'a=b', 'db-pass', 's3cr3t', 't0k']) expect(out).not.toContain(s);
    expect(out).toContain('partNumber=1');
    expect(JSON.parse(out).req.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]' });
  });

  it('the worker run alone logs through the same redaction', () => {
    const written: string[] = [];
    const log = processLogger('info', 'worker', { write: (m: string) => written.push(m) });
    log.error({ err: new Error('GET http://127.0.0.1/api/storage/file/a?exp=1&sig=worker-sig failed') }, 'Job fit r_1 failed');
    log.info('Fetched https://b.s3.amazonaws.com/k?X-Amz-Signature=worker-amz');
    expect(written.join('\n')).not.toMatch(/worker-sig|worker-amz/);
    // JSON lines, one per entry, like the API's.
    const first = JSON.parse(written[0]);
    expect(first).toMatchObject({ level: 50, role: 'worker', msg: 'Job fit r_1 failed' });
    expect(first.err.message).toMatch(/^GET .*sig=\[redacted\] failed/);
  });
});

/** Modes of everything under a folder that is neither a private file (0600) nor a private folder (0700). */
function notPrivate(dir: string): string[] {
  const bad: string[] = [];
  const walk = (p: string) => {
    for (const name of readdirSync(p)) {
      const path = join(p, name);
      const st = lstatSync(path);
      if (st.isSymbolicLink()) continue;
      const mode = st.mode & 0o777;
      if (st.isDirectory()) {
        if (mode !== 0o700) bad.push(`${path} ${mode.toString(8)}`);
        walk(path);
      } else if (mode !== 0o600) bad.push(`${path} ${mode.toString(8)}`);
    }
  };
  if ((lstatSync(dir).mode & 0o777) !== 0o700) bad.push(`${dir} ${(lstatSync(dir).mode & 0o777).toString(8)}`);
  walk(dir);
  return bad;
}

describe('a private data folder', () => {
  it('after a start, DATA_DIR is 0700 and every file and folder in it (the embedded database too) 0600/0700', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'portal-private-'));
    const dataDir = join(parent, 'data');
    try {
      // An existing installation: a world-writable database copy, open folders, an old secret file.
      await mkdir(dataDir, { mode: 0o755 });
      const template = await freshDataDir();
      await rm(join(dataDir, 'db'), { recursive: true, force: true });
      await import('node:fs/promises').then((fs) => fs.cp(join(template, 'db'), join(dataDir, 'db'), { recursive: true }));
      await rm(template, { recursive: true, force: true });
      await chmod(join(dataDir, 'db'), 0o755);
      await mkdir(join(dataDir, 'outbox'), { mode: 0o777 });
      await writeFile(join(dataDir, 'outbox', 'old.txt'), 'mail', { mode: 0o666 });
      await chmod(join(dataDir, 'outbox', 'old.txt'), 0o666);
      const config = loadConfig({}, { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', metricsPort: null, checkAnswers: true });
      const built = await buildApp(config);
      try {
        await built.app.listen({ port: 0, host: '127.0.0.1' });
        const base = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
        const U = await signup(base, 'private');
        await call(base, 'apikeyCreate', { token: U.token, body: { client: U.client, name: 'k' } });
        await call(base, 'resetStart', { body: { email: U.email } });
        await waitFor(async () => (await resetLinks(dataDir, U.email)).length > 0);
        expect(notPrivate(dataDir)).toEqual([]);
      } finally {
        await built.close();
      }
      expect(notPrivate(dataDir)).toEqual([]);
      for (const f of ['jwt-secret', 'encryption-key']) expect((await stat(join(dataDir, f))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('refuses to start on a data folder it cannot make private, saying why', async () => {
    // The check as another user would meet it: a folder that belongs to someone else.
    const dir = await mkdtemp(join(tmpdir(), 'portal-foreign-'));
    const bundle = join(dir, 'datadir.mjs');
    try {
      const out = await build({
        entryPoints: [join(serverRoot, 'src/datadir.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        write: false,
      });
      await writeFile(
        bundle,
        out.outputFiles[0].text +
          '\ntry { makePrivate(process.argv[2]); console.log("started"); } catch (e) { console.log(e.message); process.exit(1); }\n',
      );
      await chmod(dir, 0o755);
      await chmod(bundle, 0o644);
      const target = join(dir, 'data');
      await mkdir(target, { mode: 0o755 });
      await chmod(target, 0o755);
      if (process.getuid?.() === 0) {
        const r = spawnSync(process.execPath, [bundle, target], { uid: 65534, gid: 65534, encoding: 'utf8' });
        expect(r.status).toBe(1);
        expect(r.stdout).toMatch(
          /DATA_DIR .*data belongs to user 0, but the server runs as user 65534, so it cannot make the folder private/,
        );
      }
      const file = join(dir, 'not-a-folder');
      await writeFile(file, 'x');
      expect(() => loadConfig({ DATA_DIR: file })).toThrow(/Cannot create DATA_DIR|is not a folder/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('separate keys and rotate-keys', () => {
  /** A token as versions before 0.2 stored it: AES-256-GCM under a key derived from JWT_SECRET. */
  const legacyEncrypt = (jwtSecret: string, plain: string) => {
    const key = createHash('sha256').update(`portal-encrypt:${jwtSecret}`).digest();
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return ['v1', iv.toString('base64'), c.getAuthTag().toString('base64'), body.toString('base64')].join('.');
  };

  it.each(kinds)('on %s: tokens of earlier versions move to ENCRYPTION_KEY at start; rotation keeps every stored token', async (kind) => {
    let srv = await startServer(kind);
    const U = await signup(srv.url, 'keys');
    const key = (await call(srv.url, 'apikeyCreate', { token: U.token, body: { client: U.client, name: 'k' } })).body.apikey;
    await call(srv.url, 'integrationCreate', {
      token: U.token,
      body: { client: U.client, name: 'LLM', service: 'OpenAI', token: 'sk-integration-secret-1' },
    });
    // A two-factor secret is a stored token too: rotation re-encrypts it with the others.
    const otpSecret = (await call(srv.url, 'otpSetup', { token: U.token })).body.otp.secret as string;
    const db = () => srv.built.services.db;
    const storedOtp = async () =>
      srv.built.services.secrets.decrypt(
        (await db().selectFrom('user_otp').select('secret_enc').where('user_stamp', '=', U.user).executeTakeFirstOrThrow()).secret_enc,
      );
    const stored = async () =>
      (await db().selectFrom('apikeys').select('token_enc').where('clue', '=', key.clue).executeTakeFirstOrThrow()).token_enc;
    const listed = async (token: string) =>
      (await call(srv.url, 'apikeyList', { token, query: { client: U.client } })).body.apikey.list[0].token;
    // An installation of before: its tokens were encrypted with the JWT_SECRET-derived key.
    await db()
      .updateTable('apikeys')
      .set({ token_enc: legacyEncrypt(srv.config.jwtSecret, key.token) })
      .where('clue', '=', key.clue)
      .execute();

    // Restart on the same database and data folder (the embedded one is closed first: it has one owner).
    const { config, dataDir } = srv;
    await srv.built.close();
    const built = await buildApp(config);
    const url = await built.app.listen({ port: 0, host: '127.0.0.1' });
    srv = { ...srv, built, url };
    try {
      expect(await stored()).toMatch(/^v2\./);
      let session = await login(srv.url, U.email);
      expect(await listed(session)).toBe(key.token);

      if (kind === 'embedded') {
        const before = await readFile(join(dataDir, 'encryption-key'), 'utf8');
        expect(await admin(srv, 'rotate-keys', ['--encryption'])).toMatch(/^Re-encrypted 3 stored tokens with a new key/);
        expect(await storedOtp()).toBe(otpSecret);
        const after = await readFile(join(dataDir, 'encryption-key'), 'utf8');
        expect(after).not.toBe(before);
        expect(after.trim().split('\n')).toHaveLength(1);
        expect(await listed(session)).toBe(key.token);

        const signingBefore = srv.config.jwtSecret;
        // JWT_SECRET comes from the environment in the harness: rotate-keys says where to change it.
        await expect(admin(srv, 'rotate-keys', ['--signing'])).rejects.toThrow(/JWT_SECRET is set in the environment/);
        srv.config.jwtSecretFrom = 'file';
        expect(await admin(srv, 'rotate-keys', ['--signing'])).toMatch(/everyone is signed out/);
        expect((await readFile(join(dataDir, 'jwt-secret'), 'utf8')).trim()).not.toBe(signingBefore);
        expect((await call(srv.url, 'permissions', { token: session })).status).toBe(401);
        session = await login(srv.url, U.email);
        expect(await listed(session)).toBe(key.token);
        const integration = await db()
          .selectFrom('integrations')
          .select('token_enc')
          .where('client', '=', U.client)
          .executeTakeFirstOrThrow();
        expect(srv.built.services.secrets.decrypt(integration.token_enc)).toBe('sk-integration-secret-1');
      } else {
        // Keys from the environment: a new key first, the old one after, then rotate-keys re-encrypts under it.
        srv.config.encryptionKeysFrom = 'env';
        await expect(admin(srv, 'rotate-keys', ['--encryption'])).rejects.toThrow(/ENCRYPTION_KEY=<new key>,<current key>/);
        const keys = ['a-new-encryption-key-text', ...srv.config.encryptionKeys];
        srv.config.encryptionKeys = keys;
        srv.built.services.secrets.setEncryption(keys);
        expect(await admin(srv, 'rotate-keys', ['--encryption'])).toMatch(
          /^Re-encrypted 3 stored tokens with the first key of ENCRYPTION_KEY/,
        );
        srv.built.services.secrets.setEncryption(['a-new-encryption-key-text']);
        expect(await storedOtp()).toBe(otpSecret);
        expect(await listed(session)).toBe(key.token);
      }
      await expect(admin(srv, 'rotate-keys', [])).rejects.toThrow(/usage/);
    } finally {
      await srv.close();
    }
  });
});
