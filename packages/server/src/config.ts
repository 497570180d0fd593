// Server configuration from the environment, with safe defaults; JWT_SECRET is generated and kept in DATA_DIR when unset.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
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
  /** Wall-clock seconds one job of each kind may run before it is stopped and fails with a sentence. */
  jobTimeoutS: Record<'analyze' | 'fit' | 'generate' | 'shrink', number>;
  /** Memory (resident, MB) one job's process may use before it is stopped and fails with a sentence. */
  jobMemoryMb: number;
  /** Jobs one worker runs at once. */
  workerSlots: number;
  /** Seconds a stopping worker waits for running jobs; what has not finished by then is put back in the queue. */
  shutdownS: number;
  /** Whom to believe about the client's address and scheme (X-Forwarded-*): Fastify's trustProxy. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  /** How long a project-list answer may be served from memory; 0 turns the cache off. */
  listCacheMs: number;
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
    jobLeaseS: numberSetting(env, 'PORTAL_JOB_LEASE_S', 8, 1),
    jobTimeoutS: {
      analyze: numberSetting(env, 'PORTAL_JOB_TIMEOUT_ANALYZE_S', 60, 0.1),
      fit: numberSetting(env, 'PORTAL_JOB_TIMEOUT_FIT_S', 600, 0.1),
      generate: numberSetting(env, 'PORTAL_JOB_TIMEOUT_GENERATE_S', 300, 0.1),
      shrink: numberSetting(env, 'PORTAL_JOB_TIMEOUT_SHRINK_S', 60, 0.1),
    },
    jobMemoryMb: numberSetting(env, 'PORTAL_JOB_MEMORY_MB', 1024, 64),
    workerSlots: Math.floor(numberSetting(env, 'PORTAL_WORKER_SLOTS', availableParallelism(), 1)),
    shutdownS: numberSetting(env, 'PORTAL_SHUTDOWN_S', 20, 0),
    listCacheMs: numberSetting(env, 'LIST_CACHE_MS', 500, 0),
    logLevel: env.LOG_LEVEL || 'info',
    ...overrides,
  };
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
    `PORTAL_WORKER_SLOTS=${c.workerSlots} PORTAL_JOB_MEMORY_MB=${c.jobMemoryMb} PORTAL_JOB_LEASE_S=${c.jobLeaseS} PORTAL_SHUTDOWN_S=${c.shutdownS}`,
    `PORTAL_JOB_TIMEOUT_{ANALYZE,FIT,GENERATE,SHRINK}_S=${[c.jobTimeoutS.analyze, c.jobTimeoutS.fit, c.jobTimeoutS.generate, c.jobTimeoutS.shrink].join(',')}`,
  ];
  return lines.join('\n');
}
