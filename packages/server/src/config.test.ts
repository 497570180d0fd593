// Configuration: JWT_SECRET generated once and kept in DATA_DIR when unset; the printed configuration holds no secret.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeConfig, loadConfig } from './config';

const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('configuration', () => {
  it('generates JWT_SECRET once into DATA_DIR (owner-only) and reads the same value on the next start', () => {
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'from-env' }).jwtSecret).toBe('from-env');
  });

  it('keeps a separate encryption key in DATA_DIR, or takes ENCRYPTION_KEY (a list: the first encrypts) and ALLOWED_HOSTS', () => {
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.encryptionKeys).toHaveLength(1);
    expect(first.encryptionKeys[0]).not.toBe(first.jwtSecret);
    expect(statSync(join(dir, 'encryption-key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).encryptionKeys).toEqual(first.encryptionKeys);
    const env = loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: 'new-key, old-key', ALLOWED_HOSTS: 'Portal.LAN, 10.0.0.5' });
    expect(env).toMatchObject({
      encryptionKeys: ['new-key', 'old-key'],
      encryptionKeysFrom: 'env',
      allowedHosts: ['portal.lan', '10.0.0.5'],
    });
    expect(describeConfig(env)).not.toContain('new-key');
    expect(describeConfig(env)).toContain('ALLOWED_HOSTS=portal.lan,10.0.0.5');
  });

  it('prints every setting without passwords, keys or the secret', () => {
    const c = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: 'jwt-secret-value',
      ENCRYPTION_KEY: 'encryption-key-value',
      DATABASE_URL: 'postgres://portal:db-password@db.internal:5432/portal',
      SMTP_URL: 'smtp://mailer:smtp-password@mail.internal:587',
      STORAGE_URL: 's3://files?endpoint=http://s3.internal:9000&accessKeyId=AKIDVALUE&secretAccessKey=s3-secret-value',
    });
    const text = describeConfig(c);
    for (const secret of ['jwt-secret-value', 'encryption-key-value', 'db-password', 'smtp-password', 'AKIDVALUE', 's3-secret-value'])
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
});
