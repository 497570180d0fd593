// A page of one project's list (its uploads, requests or models) with the caller's access to the project, in one
// statement: the project list's treatment (routes/projects.ts) for the lists inside a project.
import type { Kysely } from 'kysely';
import type { Bucket, Client } from '@portal/core';
import type { DB } from './db/schema';
import type { Caller } from './services';
import { sessionRead, sessionToCheck } from './access';
import { preparedMark, runStatement } from './db/statements';
import { forbidden, notFound } from './errors';
import { now } from './ids';
import { Params } from './paging';
import { bucketView, clientView } from './views';

/** A column of a page statement's rows: its name and its SQL type (a part that does not fill it gives a null of it). */
export type Column = readonly [name: string, type: string];

/**
 * One part of a page statement's union: its kind (`k`), the rows it reads (`from`, with its alias `as`) and the
 * columns it fills from them, by name (or a SQL expression of its own).
 */
export interface Part {
  k: number;
  from: string;
  as: string;
  fills: ReadonlyArray<string | readonly [name: string, expression: string]>;
}

/**
 * The project's row, kind 0: whether the session is live, whether the caller may see the project, the project and
 * its client. Its stamp, name, created_at and run_count share the columns of the list's own rows.
 */
export interface ProjectRow {
  k: number;
  live: boolean | null;
  allowed: boolean | null;
  stamp: string | null;
  name: string;
  created_at: number;
  run_count: number;
  rend_count: number;
  c_stamp: string | null;
  c_name: string;
  c_plan: string;
  c_choice: string;
  c_active: number;
}

const PROJECT_COLUMNS: Column[] = [
  ['k', 'int'],
  ['live', 'boolean'],
  ['allowed', 'boolean'],
  ['stamp', 'text'],
  ['name', 'text'],
  ['created_at', 'bigint'],
  ['seq', 'bigint'],
  ['run_count', 'bigint'],
  ['rend_count', 'bigint'],
  ['c_stamp', 'text'],
  ['c_name', 'text'],
  ['c_plan', 'text'],
  ['c_choice', 'text'],
  ['c_active', 'int'],
];

/**
 * The access: the session ($3; null when already read) of the user ($2), the project ($1) and its client, and
 * whether the caller may see them (a member, or the client's own API key $5). A session that ended finds no project.
 */
const ACCESS = `sc as (
  select s.live, b.stamp, b.name, b.created_at, b.run_count, b.rend_count,
    c.stamp as c_stamp, c.name as c_name, c.plan as c_plan, c.choice as c_choice, c.active as c_active,
    coalesce(c.stamp = $5::text, false)
      or exists (select 1 from permissions p where p.client_stamp = c.stamp and p.user_stamp = $2) as allowed
  from (select $3::text is null or exists (
      select 1 from sessions where id = $3 and user_stamp = $2 and ended_at is null and expires_at >= $4
    ) as live) s
  left join buckets b on b.stamp = $1 and b.active = 1 and s.live
  left join clients c on c.stamp = b.client
)`;

const PROJECT_PART: Part = {
  k: 0,
  from: 'sc',
  as: 'sc',
  fills: [
    'live',
    'allowed',
    'stamp',
    'name',
    'created_at',
    'run_count',
    'rend_count',
    'c_stamp',
    'c_name',
    'c_plan',
    'c_choice',
    'c_active',
  ],
};

/** The union of the parts, each giving every column (its own, or a null of the column's type). */
function unionOf(columns: Column[], parts: Part[]): string {
  return parts
    .map((part, i) => {
      const given = new Map(part.fills.map((f) => (typeof f === 'string' ? [f, `${part.as}.${f}`] : f)));
      const values = columns.map(([name, type]) => {
        const value = name === 'k' ? String(part.k) : (given.get(name) ?? `null::${type}`);
        return i === 0 ? `${value} as "${name}"` : value;
      });
      return `select ${values.join(', ')} from ${part.from}`;
    })
    .join('\nunion all\n');
}

/**
 * The texts built so far, by their shape: a list's statement (its name, which fixes its columns, its `with` parts and
 * its parts' rows) is the same text for every call of the same shape, built once and then the same string, so
 * neither the union nor the statement's name (a lookup by its text) is worked out again per call. The shapes are
 * fixed by the code (a page's order, search and cursor); past TEXTS_MAX (a shape that varies with its values) texts
 * are built on each call.
 */
const texts = new Map<string, string>();
const TEXTS_MAX = 200;

function statementText({ name, with: more, columns, parts }: PageStatement): string {
  const shape = `${name}\n${more}\n${parts.map((p) => p.from).join('\n')}`;
  let text = texts.get(shape);
  if (text === undefined) {
    text = `${preparedMark(name)}\nwith ${ACCESS}${more}\n${unionOf([...PROJECT_COLUMNS, ...columns], [PROJECT_PART, ...parts])}`;
    if (texts.size < TEXTS_MAX) texts.set(shape, text);
  }
  return text;
}

/** What a list adds to the statement: its page's own statements (`with` parts) and the parts of its union. */
export interface PageStatement {
  /** The mark the statement is prepared under. */
  name: string;
  /** `with` parts after the access (each `, name as (...)`); they may use `(select sc.allowed from sc)` and `$1`, `$6`. */
  with: string;
  columns: Column[];
  parts: Part[];
}

/**
 * The first values of a list's statement: $1 the parent (a project, or a client), $2 the user (empty for a key),
 * $3 the session to read (null when read already), $4 now, $5 the key's own client (null for a user), $6 whether
 * the call lists active rows.
 */
export function accessParams(parent: string, caller: Caller, listed: boolean): Params {
  const params = new Params();
  params.add(parent);
  params.add(caller.kind === 'user' ? caller.stamp : '');
  params.add(sessionToCheck(caller));
  params.add(now());
  params.add(caller.kind === 'key' ? caller.client : null);
  params.add(listed);
  return params;
}

/** A condition for a page's rows: the caller may see the project and the call lists active rows ($6). */
export const SEEN = '(select sc.allowed from sc) and $6::boolean';

/**
 * The page of `project`'s list that `statement` reads (its parameters from $7), with the project and its client:
 * 401 for a session that ended (before anything else), 404 for an unknown or removed project, 403 for someone
 * else's. `listed`: the call lists active rows (false lists nothing, as `active=0` does).
 */
export async function projectPage<R>(
  db: Kysely<DB>,
  caller: Caller,
  project: string,
  listed: boolean,
  statement: (params: Params) => PageStatement,
): Promise<{ bucket: Bucket; client: Client; rows: R[] }> {
  const params = accessParams(project, caller, listed);
  const text = statementText(statement(params));
  const found = await runStatement<ProjectRow | (R & { k: number })>(db, text, params.values);
  const at = found.findIndex((r) => r.k === 0);
  const [p] = found.splice(at, 1) as ProjectRow[];
  sessionRead(caller, !!p.live);
  if (p.stamp === null) throw notFound('Project');
  if (p.c_stamp === null) throw notFound('Client');
  if (!p.allowed) throw forbidden();
  return {
    bucket: bucketView(p as ProjectRow & { stamp: string }, { runs: p.run_count, rends: p.rend_count }),
    client: clientView({ stamp: p.c_stamp, name: p.c_name, plan: p.c_plan, choice: p.c_choice, active: p.c_active }),
    rows: found as R[],
  };
}
