// The checks of each setting's text, so a bad value stops the start before anything is opened, with one sentence
// that names the variable and says what it must be (never echoing a secret's value).
import { isIP } from 'node:net';
import { parseStorageUrl } from './storage/s3';

/** A setting's value is wrong: the message names the variable. */
export class SettingError extends Error {}

const fail = (message: string): never => {
  throw new SettingError(message);
};

/** Bytes the signing key must have at least (HMAC-SHA-256 keys shorter than the hash weaken it). */
export const MIN_SIGNING_KEY_BYTES = 32;
const MAKE_KEY = 'make one with `openssl rand -base64 32`';

export function checkSigningKey(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes < MIN_SIGNING_KEY_BYTES)
    fail(
      `JWT_SECRET must be at least ${MIN_SIGNING_KEY_BYTES} bytes long (it has ${bytes}): ${MAKE_KEY}, or unset it to keep one in DATA_DIR.`,
    );
  return text;
}

/** An encryption key is 32 random bytes written as base64 (or base64url) or as 64 hex digits. */
export function encryptionKeyBytes(text: string): number {
  if (/^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0 && text.length >= 64) return text.length / 2;
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64').length;
  return 0;
}

export function checkEncryptionKeys(keys: string[]): string[] {
  keys.forEach((k, i) => {
    if (encryptionKeyBytes(k) !== 32) {
      const which = keys.length > 1 ? `key ${i + 1} of ENCRYPTION_KEY` : 'ENCRYPTION_KEY';
      fail(`${which} must be 32 bytes written as base64 or 64 hex digits: ${MAKE_KEY}.`);
    }
  });
  return keys;
}

function url(name: string, text: string, protocols: string[], shape: string): URL {
  let u: URL | null = null;
  try {
    u = new URL(text);
  } catch {}
  if (!u || !protocols.includes(u.protocol) || !u.hostname) fail(`${name} must look like ${shape}.`);
  return u as URL;
}

export function checkSmtpUrl(text: string): string {
  url('SMTP_URL', text, ['smtp:', 'smtps:'], 'smtp://user:password@mail.example.com:587 (or smtps://...:465)');
  return text;
}

/** MAIL_FROM: an address, or a name and an address in angle brackets, with no control characters (a header). */
export function checkMailFrom(text: string): string {
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f]/.test(text);
  const address = /^[^\s@<>]+@[^\s@<>]+$/;
  const named = /^[^<>]*<([^<>]+)>$/.exec(text);
  if (control || !(address.test(text) || (named && address.test(named[1]))))
    fail(`MAIL_FROM must be an address such as no-reply@example.com or Portal <no-reply@example.com>.`);
  return text;
}

export function checkDatabaseUrl(text: string): string {
  url('DATABASE_URL', text, ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database');
  return text;
}

export function checkStorageUrl(text: string): string {
  const where = parseStorageUrl(text);
  if (where.endpoint !== undefined)
    url('The endpoint of STORAGE_URL', where.endpoint, ['http:', 'https:'], 'http(s)://host:port (s3://<bucket>?endpoint=https://...)');
  return text;
}

/** PUBLIC_URL: the origin users reach (and an optional path), without a query or fragment; no trailing slash kept. */
export function checkPublicUrl(text: string): string {
  const u = url('PUBLIC_URL', text, ['http:', 'https:'], 'https://portal.example.com');
  if (u.search || u.hash || u.username || u.password)
    fail('PUBLIC_URL must be a plain address such as https://portal.example.com (no user, query or #).');
  return text.replace(/\/+$/, '');
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** A host name or an IP address (HOST, METRICS_HOST, ALLOWED_HOSTS entries). */
export function checkHost(name: string, text: string): string {
  if (!isIP(text) && !HOST_NAME.test(text)) fail(`${name} must be a host name or an IP address, got "${text}".`);
  return text;
}

function cidr(text: string): boolean {
  const [addr, bits, extra] = text.split('/');
  const family = isIP(addr);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: true, false, a hop count, or addresses/CIDRs (and Fastify's names loopback, linklocal, uniquelocal). */
export function checkTrustProxy(text: string): string {
  if (/^(true|false|\d+)$/.test(text)) return text;
  const entries = text.split(',').map((x) => x.trim());
  const bad = entries.find((e) => !cidr(e) && !['loopback', 'linklocal', 'uniquelocal'].includes(e));
  if (bad !== undefined)
    fail(`TRUST_PROXY must be true, false, a number of hops or addresses/CIDRs separated by commas; "${bad}" is none of these.`);
  return text;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function checkLogLevel(text: string): string {
  if (!LOG_LEVELS.includes(text)) fail(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${text}".`);
  return text;
}

/** A yes/no switch (PORTAL_WORKER): 1/0, true/false, yes/no, on/off. */
export function checkSwitch(name: string, text: string): boolean {
  const t = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(t)) return true;
  if (['0', 'false', 'no', 'off'].includes(t)) return false;
  return fail(`${name} must be 1 or 0 (true or false), got "${text}".`);
}

export function checkPort(name: string, text: string): number {
  const port = Number(text);
  if (text.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    fail(`${name} must be a port number (0 to 65535), got "${text}".`);
  return port;
}
