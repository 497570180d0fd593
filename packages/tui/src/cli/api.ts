// `portal api`: a raw authenticated call to the API (gh api): prints the answer's JSON, exits 1 on a non-2xx answer.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
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

export function register(program: Command, deps: Deps): void {
  program
    .command('api <path>')
    .description('Make an authenticated call to the API and print the answer as JSON')
    .option('-X, --method <method>', 'HTTP method (default: GET, or POST when fields are given)')
    .option('-f, --raw-field <key=value>', 'a text field (query string for GET, JSON body otherwise); repeatable', collect)
    .option('-F, --field <key=value>', 'a typed field: true, false, null, numbers, @file (@- for standard input); repeatable', collect)
    .option('--input <file>', 'the JSON body from a file (- for standard input)')
    .addHelpText(
      'after',
      examples(
        'portal api /api/user/permission',
        'portal api /api/bucket/item -f active=1 -f client=<id> --jq ".bucket.list[].name"',
        'portal api -X PUT /api/bucket/item -f client=<id> -f name="Churn"',
        'portal api -X POST /api/bucket/name -f bucket=<id> -f name="Churn v2"',
      ) + '\nThe path is on the API you are signed in to (--api); `/api/` may be left out. Exit 1 on an answer that is not 2xx.\n',
    )
    .action(
      act(deps, async (s, path: string, opts: { method?: string; rawField?: string[]; field?: string[]; input?: string }) => {
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
        const method = (opts.method ?? (hasFields || opts.input ? 'POST' : 'GET')).toUpperCase();
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
        const api = await s.api();
        const res = await api.request(method, full, { query: isGet && hasFields ? fields : undefined, body });
        s.out.printJson(res.data);
        if (res.status < 200 || res.status >= 300) {
          const message = (res.data as { error?: { message?: string } } | null)?.error?.message;
          throw new CliError(`HTTP ${res.status}${message ? `: ${message}` : ''}`);
        }
      }),
    );
}
