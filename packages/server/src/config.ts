// Server configuration from the environment, with safe defaults; the signing key (JWT_SECRET) and the encryption key
// (ENCRYPTION_KEY) are generated and kept in DATA_DIR when unset. DATA_DIR is made private before anything is read.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAI_DEFAULT_BASE_URL } from '@portal/core';
import { newKeyText } from './auth/secrets';
import { makePrivate } from './datadir';
import {
  checkDatabaseUrl,
  checkEncryptionKeys,
  checkHost,
  checkLogLevel,
  checkMailFrom,
  checkPort,
  checkPublicUrl,
  checkSigningKey,
  checkSmtpUrl,
  checkStorageUrl,
  checkSwitch,
  checkTrustProxy,
} from './settings';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  storageUrl?: string;
  smtpUrl?: string;
  /** The signing key's text: signs session tokens and links, nothing else. */
  jwtSecret: string;
  /** Where the signing key comes from: the environment (JWT_SECRET) or DATA_DIR/jwt-secret. */
  jwtSecretFrom: 'env' | 'file';
  /** Encryption keys of stored tokens, the first encrypts (ENCRYPTION_KEY, comma-separated, or DATA_DIR/encryption-key). */
  encryptionKeys: string[];
  encryptionKeysFrom: 'env' | 'file';
  /** The public base URL for links (upload, download, reset, payment); unset: built from an allowed Host. */
  publicUrl?: string;
  /** Host names (besides localhost and HOST) whose Host header may name the links' base when PUBLIC_URL is unset. */
  allowedHosts: string[];
  /** Where the built web portal lives (packages/web/dist). */
  webDist: string;
  /** Apply pending migrations at start; false (`serve --no-migrate`) refuses to start on a database that is behind. */
  migrate: boolean;
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
  /** GET /metrics is served on this port only, never on the public one (METRICS_PORT, default 9464; 0: any free port; null: off). */
  metricsPort: number | null;
  /** The address the metrics port listens on (METRICS_HOST, default 127.0.0.1: only this machine). */
  metricsHost: string;
  /** Seconds a process told to stop (SIGTERM) keeps serving, answering 503 on /api/ready and closing connections. */
  drainS: number;
  /** Every answer is read back through its call's response schema first; one that does not match is a 500 (PORTAL_CHECK_ANSWERS=1; the tests). */
  checkAnswers: boolean;
  /** Seconds a client has to send a request's headers (slow clients are cut off). */
  headersTimeoutS: number;
  /** Seconds a client has to send a whole request, body included; upload bytes are excepted while they keep moving. */
  requestTimeoutS: number;
  /** Seconds an idle keep-alive connection stays open (longer than the balancer's own idle timeout). */
  keepAliveTimeoutS: number;
  /** Seconds an upload's bytes may stop moving before the connection is cut. */
  uploadIdleTimeoutS: number;
  /** Seconds a signed upload URL stays valid (at most 15 minutes). */
  uploadUrlTtlS: number;
  /** Seconds the storage sweep waits before deleting objects of failed and removed uploads. */
  storageGraceS: number;
  /** Log requests (off in tests). */
  logLevel: string;
  /** Where text-embedding requests send texts (OPENAI_BASE_URL): the one outbound host, the operator's choice. */
  openaiBaseUrl: string;
  /** Seconds one call to that service may take before it is retried (OPENAI_TIMEOUT_S). */
  openaiTimeoutS: number;
  /** Webhooks may go to loopback, private and link-local addresses, over plain http too (PORTAL_WEBHOOK_ALLOW_PRIVATE=1). */
  webhookAllowPrivate: boolean;
}

function defaultWebDist(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Bundled: packages/server/dist/main.js; from source: packages/server/src/config.ts. Both sit two levels below packages/.
  return resolve(here, '..', '..', 'web', 'dist');
}

export const SIGNING_KEY_FILE = 'jwt-secret';
export const ENCRYPTION_KEY_FILE = 'encryption-key';

/** The lines of a key file in DATA_DIR, made with one new key when it does not exist yet. */
export function readKeyFile(dataDir: string, name: string): string[] {
  const file = join(dataDir, name);
  if (existsSync(file)) {
    const keys = readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (keys.length) return keys;
  }
  const key = newKeyText();
  writeKeyFile(dataDir, name, [key]);
  return [key];
}

/** Replaces a key file whole (written aside, then renamed), so a crash leaves the old file or the new one. */
export function writeKeyFile(dataDir: string, name: string, keys: string[]): void {
  const file = join(dataDir, name);
  writeFileSync(`${file}.next`, keys.join('\n') + '\n', { mode: 0o600 });
  renameSync(`${file}.next`, file);
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** A numeric setting: unset gives the default; anything but a number from `min` up stops the start with a sentence. */
function numberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number of at least ${min}, got "${raw}".`);
  return n;
}

/** A text setting: unset or empty gives undefined, anything else must pass its check. */
function textSetting<T>(env: NodeJS.ProcessEnv, name: string, check: (text: string) => T): T | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : check(raw.trim());
}

export const DEFAULT_DATA_DIR = './.portal-data';

/** The default metrics port (Prometheus' registry lists 9464 for OpenTelemetry's Prometheus exporter). */
export const DEFAULT_METRICS_PORT = 9464;

function metricsPortSetting(env: NodeJS.ProcessEnv): number | null {
  const raw = env.METRICS_PORT?.trim();
  if (raw === undefined || raw === '') return DEFAULT_METRICS_PORT;
  if (raw.toLowerCase() === 'off') return null;
  return checkPort('METRICS_PORT', raw);
}

/**
 * The configuration, every variable checked before anything is opened or created: a bad value throws one sentence
 * that names the variable (main prints it and exits 1).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? DEFAULT_DATA_DIR);
  const port = overrides.port ?? textSetting(env, 'PORT', (v) => checkPort('PORT', v)) ?? 8080;
  const host = overrides.host ?? textSetting(env, 'HOST', (v) => checkHost('HOST', v)) ?? '0.0.0.0';
  const jwtSecret = textSetting(env, 'JWT_SECRET', checkSigningKey);
  const envKeys = checkEncryptionKeys(list(env.ENCRYPTION_KEY));
  // Read by the mailer itself; checked here so a bad one stops the start rather than the first mail.
  textSetting(env, 'MAIL_FROM', checkMailFrom);
  const settings = {
    databaseUrl: textSetting(env, 'DATABASE_URL', checkDatabaseUrl),
    storageUrl: textSetting(env, 'STORAGE_URL', checkStorageUrl),
    smtpUrl: textSetting(env, 'SMTP_URL', checkSmtpUrl),
    publicUrl: textSetting(env, 'PUBLIC_URL', checkPublicUrl),
    allowedHosts: list(env.ALLOWED_HOSTS).map((h) => checkHost('ALLOWED_HOSTS', h).toLowerCase()),
    worker: textSetting(env, 'PORTAL_WORKER', (v) => checkSwitch('PORTAL_WORKER', v)) ?? true,
    trustProxy: parseTrustProxy(textSetting(env, 'TRUST_PROXY', checkTrustProxy)),
    metricsPort: metricsPortSetting(env),
    metricsHost: textSetting(env, 'METRICS_HOST', (v) => checkHost('METRICS_HOST', v)) ?? '127.0.0.1',
    logLevel: textSetting(env, 'LOG_LEVEL', checkLogLevel) ?? 'info',
    authRateLimit: numberSetting(env, 'AUTH_RATE_LIMIT', 20, 1),
    freeCredit: numberSetting(env, 'FREE_CREDIT', 10_000_000, 0),
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
    drainS: numberSetting(env, 'PORTAL_DRAIN_S', 10, 0),
    checkAnswers: env.PORTAL_CHECK_ANSWERS === '1',
    headersTimeoutS: numberSetting(env, 'HEADERS_TIMEOUT_S', 20, 1),
    requestTimeoutS: numberSetting(env, 'REQUEST_TIMEOUT_S', 60, 1),
    keepAliveTimeoutS: numberSetting(env, 'KEEPALIVE_TIMEOUT_S', 65, 1),
    uploadIdleTimeoutS: numberSetting(env, 'UPLOAD_IDLE_TIMEOUT_S', 30, 1),
    uploadUrlTtlS: uploadTtl(env),
    storageGraceS: numberSetting(env, 'STORAGE_SWEEP_GRACE_S', 24 * 60 * 60, 0),
    openaiBaseUrl: openaiBaseUrl(env.OPENAI_BASE_URL),
    openaiTimeoutS: numberSetting(env, 'OPENAI_TIMEOUT_S', 60, 0.1),
    webhookAllowPrivate: textSetting(env, 'PORTAL_WEBHOOK_ALLOW_PRIVATE', (v) => checkSwitch('PORTAL_WEBHOOK_ALLOW_PRIVATE', v)) ?? false,
  };
  // Only now, every setting read: the data folder is made (private) and the keys kept there are read or made.
  makePrivate(dataDir);
  return {
    port,
    host,
    dataDir,
    jwtSecret: jwtSecret ?? readKeyFile(dataDir, SIGNING_KEY_FILE)[0],
    jwtSecretFrom: jwtSecret ? 'env' : 'file',
    encryptionKeys: envKeys.length ? envKeys : readKeyFile(dataDir, ENCRYPTION_KEY_FILE),
    encryptionKeysFrom: envKeys.length ? 'env' : 'file',
    webDist: env.WEB_DIST || defaultWebDist(),
    migrate: true,
    ...settings,
    ...overrides,
  };
}

/** Upload links live 15 minutes at most: a shorter life is allowed, a longer one would weaken what they promise. */
function uploadTtl(env: NodeJS.ProcessEnv): number {
  const ttl = numberSetting(env, 'UPLOAD_URL_TTL_S', 900, 1);
  if (ttl > 900) throw new Error(`UPLOAD_URL_TTL_S must be at most 900 (15 minutes), got "${env.UPLOAD_URL_TTL_S}".`);
  return ttl;
}

/** OPENAI_BASE_URL: an http(s) URL without credentials; unset: OpenAI's own API. */
function openaiBaseUrl(v: string | undefined): string {
  if (!v?.trim()) return OPENAI_DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(v.trim());
  } catch {
    throw new Error(`OPENAI_BASE_URL must be an http or https URL such as ${OPENAI_DEFAULT_BASE_URL}, got "${v}".`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw new Error(`OPENAI_BASE_URL must be an http or https URL without credentials or query, such as ${OPENAI_DEFAULT_BASE_URL}.`);
  }
  return url.toString().replace(/\/+$/, '');
}

/** TRUST_PROXY (already checked): unset or false (default), true, a hop count, or addresses/CIDRs separated by commas. */
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
    `JWT_SECRET=${c.jwtSecretFrom === 'env' ? '(set)' : `(kept in DATA_DIR/${SIGNING_KEY_FILE})`}`,
    `ENCRYPTION_KEY=${c.encryptionKeysFrom === 'env' ? `(set, ${c.encryptionKeys.length} key${c.encryptionKeys.length > 1 ? 's' : ''})` : `(kept in DATA_DIR/${ENCRYPTION_KEY_FILE})`}`,
    `PUBLIC_URL=${c.publicUrl ?? '(unset: links use localhost, HOST or ALLOWED_HOSTS as the request names them, else localhost)'}`,
    `ALLOWED_HOSTS=${c.allowedHosts.join(',') || '(unset)'}`,
    `TRUST_PROXY=${process.env.TRUST_PROXY || 'false'}`,
    `PORTAL_WORKER=${c.worker ? '1 (the worker runs in this process)' : '0 (no worker in this process)'}`,
    `METRICS_PORT=${c.metricsPort === null ? 'off (no metrics)' : `${c.metricsPort} on ${c.metricsHost} (GET /metrics; never on PORT)`}`,
    `PORTAL_DRAIN_S=${c.drainS} HEADERS_TIMEOUT_S=${c.headersTimeoutS} REQUEST_TIMEOUT_S=${c.requestTimeoutS} KEEPALIVE_TIMEOUT_S=${c.keepAliveTimeoutS} UPLOAD_IDLE_TIMEOUT_S=${c.uploadIdleTimeoutS}`,
    `LOG_LEVEL=${c.logLevel}`,
    `UPLOAD_URL_TTL_S=${c.uploadUrlTtlS}`,
    `STORAGE_SWEEP_GRACE_S=${c.storageGraceS}`,
    `PORTAL_WORKER_SLOTS=${c.workerSlots} PORTAL_JOB_MEMORY_MB=${c.jobMemoryMb} PORTAL_JOB_LEASE_S=${c.jobLeaseS} PORTAL_SHUTDOWN_S=${c.shutdownS}`,
    `OPENAI_BASE_URL=${c.openaiBaseUrl} OPENAI_TIMEOUT_S=${c.openaiTimeoutS}`,
    `PORTAL_WEBHOOK_ALLOW_PRIVATE=${c.webhookAllowPrivate ? '1 (webhooks may go to private addresses, over http too)' : '0 (public https addresses only)'}`,
    `PORTAL_JOB_TIMEOUT_{ANALYZE,FIT,GENERATE,SHRINK}_S=${[c.jobTimeoutS.analyze, c.jobTimeoutS.fit, c.jobTimeoutS.generate, c.jobTimeoutS.shrink].join(',')}`,
  ];
  return lines.join('\n');
}
