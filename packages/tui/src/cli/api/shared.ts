// What the api verbs share.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, usageError } from '../errors';

/** -F: a typed value (true, false, null, a number, or @file for a file's contents); -f keeps the text as it is. */
export function typed(value: string, cwd: string): unknown {
  if (value === 'true' || value === 'false') return value === 'true';
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('@')) return readFileSync(value === '@-' ? 0 : resolve(cwd, value.slice(1)), 'utf8');
  return value;
}

export function field(pair: string, flag: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw usageError(`${flag} takes key=value, got "${pair}"`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

/** -H 'Name: value' pairs as request headers; a malformed one is a usage error. */
export function requestHeaders(pairs: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf(':');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n]/.test(value))
      throw usageError(`-H takes 'Name: value', got "${pair}"`);
    headers[name.toLowerCase()] = value;
  }
  return headers;
}

/** The page of a paged answer: the first object holding a `list` array, and its `next` (a string, or null at the end). */
export function pageOf(data: unknown): { list: unknown[]; next: string | null } | null {
  if (!data || typeof data !== 'object') return null;
  const o = data as Record<string, unknown>;
  if (Array.isArray(o.list) && 'next' in o) return { list: o.list, next: typeof o.next === 'string' && o.next ? o.next : null };
  for (const v of Object.values(o)) {
    const found = pageOf(v);
    if (found) return found;
  }
  return null;
}

/** Bounds --paginate against a server that never stops answering `next`. */
export const MAX_PAGES = 10_000;

export interface ApiOptions {
  method?: string;
  rawField?: string[];
  field?: string[];
  input?: string;
  header?: string[];
  include?: boolean;
  paginate?: boolean;
}

export type Answer = { status: number; statusText: string; headers: Array<[string, string]>; data: unknown };

export const ok = (status: number) => status >= 200 && status < 300;

/** -i: the status line and headers, as curl -i prints them. */
export const head = (res: Answer) => `HTTP/1.1 ${res.status} ${res.statusText}\n${res.headers.map(([k, v]) => `${k}: ${v}\n`).join('')}\n`;

/** A non-2xx answer ends the command with exit 1 and the server's message (its body is already printed). */
export function failOn(res: Answer): void {
  if (ok(res.status)) return;
  const message = (res.data as { error?: { message?: string } } | null)?.error?.message;
  throw new CliError(`HTTP ${res.status}${message ? `: ${message}` : ''}`);
}
