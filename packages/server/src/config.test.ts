// Configuration: JWT_SECRET generated once and kept in DATA_DIR when unset; the printed configuration holds no secret.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeConfig, loadConfig } from './config';

const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
const SIGNING = 'a-signing-key-of-more-than-32-bytes!';
/** 32 bytes in base64url and in hex, the two ways an encryption key may be written. */
const NEW_KEY = 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80';
const OLD_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('configuration', () => {
  it('generates JWT_SECRET once into DATA_DIR (owner-only) and reads the same value on the next start', () => {
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SIGNING }).jwtSecret).toBe(SIGNING);
  });

  it('keeps a separate encryption key in DATA_DIR, or takes ENCRYPTION_KEY (a list: the first encrypts) and ALLOWED_HOSTS', () => {
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.encryptionKeys).toHaveLength(1);
    expect(first.encryptionKeys[0]).not.toBe(first.jwtSecret);
    expect(statSync(join(dir, 'encryption-key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).encryptionKeys).toEqual(first.encryptionKeys);
    const env = loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: `${NEW_KEY}, ${OLD_KEY}`, ALLOWED_HOSTS: 'Portal.LAN, 10.0.0.5' });
    expect(env).toMatchObject({
      encryptionKeys: [NEW_KEY, OLD_KEY],
      encryptionKeysFrom: 'env',
      allowedHosts: ['portal.lan', '10.0.0.5'],
    });
    expect(describeConfig(env)).not.toContain(NEW_KEY);
    expect(describeConfig(env)).toContain('ALLOWED_HOSTS=portal.lan,10.0.0.5');
  });

  it('prints every setting without passwords, keys or the secret', () => {
    const c = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: SIGNING,
      ENCRYPTION_KEY: NEW_KEY,
      DATABASE_URL: 'postgres://portal:db-password@db.internal:5432/portal',
      SMTP_URL: 'smtp://mailer:smtp-password@mail.internal:587',
      STORAGE_URL: 's3://files?endpoint=http://s3.internal:9000&accessKeyId=AKIDVALUE&secretAccessKey=s3-secret-value',
    });
    const text = describeConfig(c);
    for (const secret of [SIGNING, NEW_KEY, 'db-password', 'smtp-password', 'AKIDVALUE', 's3-secret-value'])
      expect(text).not.toContain(secret);
    expect(text).toContain('db.internal:5432/portal');
    expect(text).toContain('mail.internal:587');
    expect(text).toContain('s3.internal:9000');
    expect(text).toMatch(/^PORT=8080$/m);
  });

  it('refuses a numeric setting that is not a number, naming it', () => {
    expect(() => loadConfig({ DATA_DIR: dir, AUTH_RATE_LIMIT: 'many' })).toThrow(
      'AUTH_RATE_LIMIT must be a number of at least 1, got "many".',
    );
    expect(() => loadConfig({ DATA_DIR: dir, FREE_CREDIT: '-5' })).toThrow('FREE_CREDIT');
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'http' })).toThrow('PORT');
    expect(loadConfig({ DATA_DIR: dir, PORTAL_JOB_LEASE_S: '5' })).toMatchObject({ jobLeaseS: 5 });
  });

  it('refuses weak keys and malformed settings before anything is opened, each in one sentence naming its variable', () => {
    const fresh = join(dir, 'never-made');
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: fresh, ...env });
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };
    const abc = refused({ JWT_SECRET: 'abc' });
    expect(abc).toBe(
      'JWT_SECRET must be at least 32 bytes long (it has 3): make one with `openssl rand -base64 32`, or unset it to keep one in DATA_DIR.',
    );
    expect(refused({ ENCRYPTION_KEY: 'x' })).toMatch(/^ENCRYPTION_KEY must be 32 bytes written as base64 or 64 hex digits/);
    expect(refused({ ENCRYPTION_KEY: `${NEW_KEY},short` })).toMatch(/^key 2 of ENCRYPTION_KEY must be 32 bytes/);
    expect(refused({ SMTP_URL: 'smtp//x' })).toMatch(/^SMTP_URL must look like smtp:\/\//);
    expect(refused({ STORAGE_URL: 'bucket' })).toMatch(/^STORAGE_URL /);
    expect(refused({ STORAGE_URL: 's3://files?endpoint=localhost' })).toMatch(/^The endpoint of STORAGE_URL must look like/);
    expect(refused({ PUBLIC_URL: 'portal.example.com' })).toMatch(/^PUBLIC_URL must look like https:\/\//);
    expect(refused({ PUBLIC_URL: 'https://portal.example.com/?a=1' })).toMatch(/^PUBLIC_URL must be a plain address/);
    expect(refused({ TRUST_PROXY: '10.0.0.0/99' })).toMatch(/^TRUST_PROXY must be .*"10.0.0.0\/99"/);
    expect(refused({ METRICS_PORT: '70000' })).toBe('METRICS_PORT must be a port number (0 to 65535), got "70000".');
    expect(refused({ METRICS_HOST: 'not a host' })).toMatch(/^METRICS_HOST must be a host name or an IP address/);
    expect(refused({ DATABASE_URL: 'mysql://db' })).toMatch(/^DATABASE_URL must look like postgres:\/\//);
    expect(refused({ LOG_LEVEL: 'verbose' })).toMatch(/^LOG_LEVEL must be one of/);
    expect(refused({ PORTAL_WORKER: 'maybe' })).toMatch(/^PORTAL_WORKER must be 1 or 0/);
    expect(refused({ PORTAL_DRAIN_S: 'soon' })).toMatch(/^PORTAL_DRAIN_S must be a number/);
    expect(refused({ MAIL_FROM: 'Portal <x@y>\r\nBcc: a@b' })).toMatch(/^MAIL_FROM must be an address/);
    expect(refused({ MAIL_FROM: 'portal' })).toMatch(/^MAIL_FROM must be an address/);
    // Nothing was made for a configuration that was refused, and no secret is repeated back.
    expect(existsSync(fresh)).toBe(false);
    expect(refused({ JWT_SECRET: 'hunter2-secret' })).not.toContain('hunter2');
  });

  it('takes valid keys in base64 or hex, TRUST_PROXY lists and the metrics settings', () => {
    const c = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: SIGNING,
      ENCRYPTION_KEY: OLD_KEY,
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, loopback',
      SMTP_URL: 'smtps://mail.example.com:465',
      STORAGE_URL: 's3://files?endpoint=http://127.0.0.1:9000',
      PUBLIC_URL: 'https://portal.example.com/',
      MAIL_FROM: 'Portal <no-reply@portal.example.com>',
    });
    expect(c).toMatchObject({
      encryptionKeys: [OLD_KEY],
      publicUrl: 'https://portal.example.com',
      metricsPort: 9464,
      metricsHost: '127.0.0.1',
    });
    expect(c).toMatchObject({ drainS: 10, headersTimeoutS: 20, requestTimeoutS: 60, keepAliveTimeoutS: 65 });
    expect(loadConfig({ DATA_DIR: dir, METRICS_PORT: 'off' }).metricsPort).toBeNull();
    expect(loadConfig({ DATA_DIR: dir, METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' })).toMatchObject({
      metricsPort: 0,
      metricsHost: '0.0.0.0',
    });
    expect(describeConfig(c)).toMatch(/^METRICS_PORT=9464 on 127.0.0.1/m);
  });
});
