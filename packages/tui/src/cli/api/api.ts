// `portal api`: make an authenticated call to the API and print the answer as JSON.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { API_DOCS_PATH, OPENAPI_PATH } from '@portal/core';
import { CliError, usageError } from '../errors';
import { readAll } from '../prompt';
import { typed, field, requestHeaders, pageOf, MAX_PAGES, ApiOptions, ok, head, failOn } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'api <path>',
  summary: 'Make an authenticated call to the API and print the answer as JSON',
  flags: [
    { flags: '-X, --method <method>', description: 'HTTP method (default: GET, or POST when fields are given)' },
    {
      flags: '-f, --raw-field <key=value>',
      description:
        'a text field (query string for GET, JSON body otherwise; fields make it a POST unless -X or --paginate says); repeatable',
      repeatable: true,
    },
    {
      flags: '-F, --field <key=value>',
      description: 'a typed field: true, false, null, numbers, @file (@- for standard input); repeatable',
      repeatable: true,
    },
    { flags: '--input <file>', description: 'the JSON body from a file (- for standard input)' },
    { flags: '-H, --header <name:value>', description: "a request header, 'Name: value'; repeatable", repeatable: true },
    { flags: '-i, --include', description: 'print the status line and the answer headers before the body' },
    { flags: '--paginate', description: "follow the answer's next to the last page and print one array of every page's list" },
  ],
  examples: [
    'portal api /api/user/permission',
    'portal api /api/bucket/item -f active=1 -f client=<id> --jq ".bucket.list[].name"',
    'portal api -X PUT /api/bucket/item -f client=<id> -f name="Churn"',
    'portal api -X POST /api/bucket/name -f bucket=<id> -f name="Churn v2"',
    'portal api /api/client/audit -f client=<id> --paginate',
    "portal api -i -H 'Accept-Language: en' /api/user/permission",
  ],
  more:
    '\nThe path is on the API you are signed in to (--api); `/api/` may be left out. Exit 1 on an answer that is not 2xx.\n' +
    `Every call, its parameters and its answers: the API reference at <api>${API_DOCS_PATH} (the document: <api>${OPENAPI_PATH}).\n`,
};

export type ApiCallOptions = ApiOptions & {
  path: string;
};

export async function run(opts: ApiCallOptions, s: Session): Promise<void> {
  const { path } = opts;
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
}
