// `portal api`: a raw authenticated call to the API (gh api): prints the answer's JSON, exits 1 on a non-2xx answer.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { API_DOCS_PATH, OPENAPI_PATH } from '@portal/core';
import type { Deps } from './context';
import { act, examples } from './common';
import { CliError, usageError } from './errors';
import { readAll } from './prompt';

/** -F: a typed value (true, false, null, a number, or @file for a file's contents); -f keeps the text as it is. */
function typed(value: string, cwd: string): unknown {
  if (value === 'true' || value === 'false') return value === 'true';
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('@')) return readFileSync(value === '@-' ? 0 : resolve(cwd, value.slice(1)), 'utf8');
  return value;
}

function field(pair: string, flag: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw usageError(`${flag} takes key=value, got "${pair}"`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

const collect = (v: string, all: string[] = []) => [...all, v];

/** -H 'Name: value' pairs as request headers; a malformed one is a usage error. */
function requestHeaders(pairs: readonly string[]): Record<string, string> {
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
function pageOf(data: unknown): { list: unknown[]; next: string | null } | null {
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
const MAX_PAGES = 10_000;

interface ApiOptions {
  method?: string;
  rawField?: string[];
  field?: string[];
  input?: string;
  header?: string[];
  include?: boolean;
  paginate?: boolean;
}

type Answer = { status: number; statusText: string; headers: Array<[string, string]>; data: unknown };

const ok = (status: number) => status >= 200 && status < 300;

/** -i: the status line and headers, as curl -i prints them. */
const head = (res: Answer) => `HTTP/1.1 ${res.status} ${res.statusText}\n${res.headers.map(([k, v]) => `${k}: ${v}\n`).join('')}\n`;

/** A non-2xx answer ends the command with exit 1 and the server's message (its body is already printed). */
function failOn(res: Answer): void {
  if (ok(res.status)) return;
  const message = (res.data as { error?: { message?: string } } | null)?.error?.message;
  throw new CliError(`HTTP ${res.status}${message ? `: ${message}` : ''}`);
}

export function register(program: Command, deps: Deps): void {
  program
    .command('api <path>')
    .description('Make an authenticated call to the API and print the answer as JSON')
    .option('-X, --method <method>', 'HTTP method (default: GET, or POST when fields are given)')
    .option(
      '-f, --raw-field <key=value>',
      'a text field (query string for GET, JSON body otherwise; fields make it a POST unless -X or --paginate says); repeatable',
      collect,
    )
    .option('-F, --field <key=value>', 'a typed field: true, false, null, numbers, @file (@- for standard input); repeatable', collect)
    .option('--input <file>', 'the JSON body from a file (- for standard input)')
    .option('-H, --header <name:value>', "a request header, 'Name: value'; repeatable", collect)
    .option('-i, --include', 'print the status line and the answer headers before the body')
    .option('--paginate', "follow the answer's next to the last page and print one array of every page's list")
    .addHelpText(
      'after',
      examples(
        'portal api /api/user/permission',
        'portal api /api/bucket/item -f active=1 -f client=<id> --jq ".bucket.list[].name"',
        'portal api -X PUT /api/bucket/item -f client=<id> -f name="Churn"',
        'portal api -X POST /api/bucket/name -f bucket=<id> -f name="Churn v2"',
        'portal api /api/client/audit -f client=<id> --paginate',
        "portal api -i -H 'Accept-Language: en' /api/user/permission",
      ) +
        '\nThe path is on the API you are signed in to (--api); `/api/` may be left out. Exit 1 on an answer that is not 2xx.\n' +
        `Every call, its parameters and its answers: the API reference at <api>${API_DOCS_PATH} (the document: <api>${OPENAPI_PATH}).\n`,
    )
    .action(
      act(deps, async (s, path: string, opts: ApiOptions) => {
        if (/^[a-z][a-z0-9+.-]*:/i.test(path))
          throw usageError('portal api takes a path on the API (e.g. /api/user/permission), not a URL: use --api to choose the server');
        const fields: Record<string, unknown> = {};
        for (const pair of opts.rawField ?? []) {
          const [k, v] = field(pair, '-f');
          fields[k] = v;
        }
        for (const pair of opts.field ?? []) {
          const [k, v] = field(pair, '-F');
          fields[k] = typed(v, s.deps.cwd);
        }
        const hasFields = Object.keys(fields).length > 0;
        const method = (opts.method ?? ((hasFields || opts.input) && !opts.paginate ? 'POST' : 'GET')).toUpperCase();
        if (!/^[A-Z]+$/.test(method)) throw usageError(`-X must be an HTTP method, got "${opts.method}"`);
        let body: unknown;
        if (opts.input !== undefined) {
          const text = opts.input === '-' ? await readAll(s.deps.stdin) : readFileSync(resolve(s.deps.cwd, opts.input), 'utf8');
          try {
            body = JSON.parse(text);
          } catch (e) {
            throw usageError(`--input is not JSON: ${(e as Error).message}`);
          }
        }
        const isGet = method === 'GET' || method === 'HEAD';
        if (hasFields && !isGet) body = { ...(body as object), ...fields };
        const full = path.replace(/^\/+/, '').startsWith('api/') ? path : `/api/${path.replace(/^\/+/, '')}`;
        const headers = requestHeaders(opts.header ?? []);
        if (opts.paginate && !isGet) throw usageError('--paginate follows pages of a GET call (leave out -X, or use -X GET)');
        const api = await s.api();
        const query = isGet && hasFields ? fields : undefined;
        let res = await api.request(method, full, { query, body, headers });
        if (opts.include) s.deps.stdout.write(head(res));
        if (!opts.paginate || !ok(res.status)) {
          s.out.printJson(res.data);
          return failOn(res);
        }
        const items: unknown[] = [];
        const seen = new Set<string>();
        for (let page = pageOf(res.data); ; page = pageOf(res.data)) {
          if (!page) throw new CliError(`--paginate: the answer of ${full} has no list with a next to follow`);
          items.push(...page.list);
          if (!page.next || seen.has(page.next) || seen.size >= MAX_PAGES) break;
          seen.add(page.next);
          res = await api.request(method, full, { query: { ...query, cursor: page.next }, headers });
          if (!ok(res.status)) {
            s.out.printJson(res.data);
            return failOn(res);
          }
        }
        s.out.printJson(items);
      }),
    );
}
