// The one redaction every log line goes through (API access log, errors, mail notices, the worker): tokens,
// signatures and credentials in URLs, headers and free text become [redacted] before anything is written.
import { pino, type Logger } from 'pino';

const R = '[redacted]';

/** Query parameters whose value is a secret: reset and session tokens, URL signatures, keys, S3's presigned fields. */
const SECRET_PARAM =
  /((?:^|[?&;\s,"'(])(?:token|access_token|refresh_token|sig|signature|key|secret|password|x-amz-[a-z-]+)=)[^&;#\s"'<>\\]*/gi;
/** The installer path's per-key secret: `/api/pack/<key>/<secret>/<wheel>`. */
const PACK_SECRET = /(\/api\/pack\/[^/?#\s"'\\]+\/)[^/?#\s"'\\]+(?=\/)/g;
/** Credentials in an Authorization value, wherever it appears in text. */
const AUTH_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
/** Session and reset tokens (JWTs) and client API key tokens in free text. */
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const KEY_TOKEN = /\bpk_[A-Za-z0-9_-]{16,}/g;
/** OpenAI keys (integration tokens: `sk-...`, `sk-proj-...`) in free text. */
const OPENAI_KEY = /\bsk-[A-Za-z0-9_-]{16,}/g;
/** Passwords in URLs (postgres://user:pass@host). */
const URL_PASSWORD = /(\/\/[^/\s:@"\\]+:)[^@/\s"\\]+@/g;

export function redactText(text: string): string {
  return text
    .replace(SECRET_PARAM, `$1${R}`)
    .replace(PACK_SECRET, `$1${R}`)
    .replace(AUTH_VALUE, `$1 ${R}`)
    .replace(JWT, R)
    .replace(KEY_TOKEN, `pk_${R}`)
    .replace(OPENAI_KEY, `sk-${R}`)
    .replace(URL_PASSWORD, `$1${R}@`);
}

/** Credential headers as they appear in a JSON log line (`"authorization":"..."`). */
const SECRET_HEADER_JSON =
  /"(authorization|proxy-authorization|cookie|set-cookie|x-portal-admin|x-amz-security-token)":"(?:[^"\\]|\\.)*"/gi;

/** One serialized log line (JSON or text), redacted. */
export function redactLine(line: string): string {
  return redactText(line.replace(SECRET_HEADER_JSON, `"$1":"${R}"`));
}

/** A log destination that redacts each line before passing it on (stdout unless given). */
export function redactingStream(out: { write(chunk: string): unknown } = process.stdout): { write(line: string): void } {
  return { write: (line) => void out.write(redactLine(line)) };
}

/** A process's JSON-line logger (the worker run alone), every line through the same redaction as the API's. */
export function processLogger(level: string, role: string, out?: { write(chunk: string): unknown }): Logger {
  return pino({ level, base: { pid: process.pid, role } }, redactingStream(out));
}
