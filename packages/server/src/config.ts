// Server configuration from the environment, with safe defaults; JWT_SECRET is generated and kept in DATA_DIR when unset.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  storageUrl?: string;
  smtpUrl?: string;
  jwtSecret: string;
  /** The public base URL for links (upload, download, reset, payment); unset: taken from each request's Host. */
  publicUrl?: string;
  /** Where the built web portal lives (packages/web/dist). */
  webDist: string;
  /** Run the job worker inside the API process. */
  worker: boolean;
  /** Requests per minute per address on login, sign-up and password reset. */
  authRateLimit: number;
  /** Free credit a new client starts with, in input parameters. */
  freeCredit: number;
  /** Seconds a worker holds a job between heartbeats; a job whose lease ran out is taken over (PostgreSQL). */
  jobLeaseS: number;
  /** Whom to believe about the client's address and scheme (X-Forwarded-*): Fastify's trustProxy. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  /** How long a project-list answer may be served from memory; 0 turns the cache off. */
  listCacheMs: number;
  /** Seconds a signed upload URL stays valid (at most 15 minutes). */
  uploadUrlTtlS: number;
  /** Seconds the storage sweep waits before deleting objects of failed and removed uploads. */
  storageGraceS: number;
  /** Log requests (off in tests). */
  logLevel: string;
}

function defaultWebDist(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Bundled: packages/server/dist/main.js; from source: packages/server/src/config.ts. Both sit two levels below packages/.
  return resolve(here, '..', '..', 'web', 'dist');
}

function secretFrom(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/** A numeric setting: unset gives the default; anything but a number from `min` up stops the start with a sentence. */
function numberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number of at least ${min}, got "${raw}".`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './.portal-data');
  const port = overrides.port ?? (env.PORT ? Number(env.PORT) : 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}".`);
  const host = overrides.host ?? env.HOST ?? '0.0.0.0';
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    storageUrl: env.STORAGE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    jwtSecret: env.JWT_SECRET || secretFrom(dataDir),
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    webDist: env.WEB_DIST || defaultWebDist(),
    worker: env.PORTAL_WORKER !== '0',
    authRateLimit: numberSetting(env, 'AUTH_RATE_LIMIT', 20, 1),
    freeCredit: numberSetting(env, 'FREE_CREDIT', 10_000_000, 0),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    jobLeaseS: numberSetting(env, 'PORTAL_JOB_LEASE_S', 30, 1),
    listCacheMs: numberSetting(env, 'LIST_CACHE_MS', 500, 0),
    uploadUrlTtlS: uploadTtl(env),
    storageGraceS: numberSetting(env, 'STORAGE_SWEEP_GRACE_S', 24 * 60 * 60, 0),
    logLevel: env.LOG_LEVEL || 'info',
    ...overrides,
  };
}

/** Upload links live 15 minutes at most: a shorter life is allowed, a longer one would weaken what they promise. */
function uploadTtl(env: NodeJS.ProcessEnv): number {
  const ttl = numberSetting(env, 'UPLOAD_URL_TTL_S', 900, 1);
  if (ttl > 900) throw new Error(`UPLOAD_URL_TTL_S must be at most 900 (15 minutes), got "${env.UPLOAD_URL_TTL_S}".`);
  return ttl;
}

/** TRUST_PROXY: unset or false (default), true, a hop count, or addresses/CIDRs separated by commas. */
function parseTrustProxy(v: string | undefined): Config['trustProxy'] {
  if (!v || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_address, hop) => hop < hops;
  }
  return v;
}

/** The configuration as printed at start: no secrets, credentials stripped from URLs. */
export function describeConfig(c: Config): string {
  const strip = (u?: string) => (u ? u.replace(/\/\/[^@/]*@/, '//***@') : undefined);
  const lines = [
    `PORT=${c.port}`,
    `HOST=${c.host}`,
    `DATA_DIR=${c.dataDir}`,
    `DATABASE_URL=${strip(c.databaseUrl) ?? '(unset: embedded database in DATA_DIR/db)'}`,
    `STORAGE_URL=${strip(c.storageUrl)?.replace(/(secretAccessKey|accessKeyId)=[^&]*/g, '$1=***') ?? '(unset: files in DATA_DIR/files)'}`,
    `SMTP_URL=${strip(c.smtpUrl) ?? '(unset: mail goes to the log and DATA_DIR/outbox)'}`,
    `JWT_SECRET=${process.env.JWT_SECRET ? '(set)' : '(kept in DATA_DIR/jwt-secret)'}`,
    `PUBLIC_URL=${c.publicUrl ?? "(unset: links use the request's Host; reset mail links use localhost)"}`,
    `TRUST_PROXY=${process.env.TRUST_PROXY || 'false'}`,
    `UPLOAD_URL_TTL_S=${c.uploadUrlTtlS}`,
    `STORAGE_SWEEP_GRACE_S=${c.storageGraceS}`,
  ];
  return lines.join('\n');
}
