// A page of a list (a client's projects; a project's uploads, requests or models) with the caller's access to its
// parent, in one prepared statement: the access is the statement's first part (`sc`), the page's rows the others.
import { sql, type Compilable, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Project, Client } from '@portal/core';
import type { DB } from './db/schema';
import type { Caller } from './services';
import { liveSession, sessionRead, sessionToCheck } from './access';
import { run, statement } from './db/statements';
import { columnOf, ownColumn, unionPart, type Fills, type UnionColumns, type UnionRow } from './db/union';
import { forbidden, notFound } from './errors';
import { now } from './ids';
import { pageValues, type Page, type PageValues } from './paging';
import { projectView, clientView } from './views';

/** The values of a list's statement: the access's, the page's and the list's own filters. */
export interface AccessValues {
  /** The parent: a project, or a client for the project list. */
  parent: string;
  /** The user (empty for a key). */
  user: string;
  /** The session to read (null when read already). */
  session: string | null;
  now: number;
  /** A key's own client (null for a user). */
  keyClient: string | null;
  /** Whether the call lists active rows (false lists nothing, as `active=0` does). */
  listed: boolean;
}
export type ListValues = AccessValues & PageValues;

export function listValues(parent: string, caller: Caller, listed: boolean, page: Page | null): ListValues {
  return {
    parent,
    user: caller.kind === 'user' ? caller.stamp : '',
    session: sessionToCheck(caller),
    now: now(),
    keyClient: caller.kind === 'key' ? caller.client : null,
    listed,
    ...pageValues(page),
  };
}

/** Whether the caller may see the client `c`: its own API key, or a member. */
const allowedIn = (eb: ExpressionBuilder<DB & { c: DB['clients'] }, 'c'>, p: AccessValues) =>
  eb
    .or([
      eb.fn.coalesce(eb('c.stamp', '=', sql<string>`${p.keyClient}::text`), sql.lit(false)),
      eb.exists(
        eb
          .selectFrom('permissions as pm')
          .select(sql.lit(1).as('one'))
          .whereRef('pm.client_stamp', '=', 'c.stamp')
          .where('pm.user_stamp', '=', p.user),
      ),
    ])
    .as('allowed');

/** The client's columns an access row reads. */
const CLIENT_READS = [
  'c.stamp as c_stamp',
  'c.name as c_name',
  'c.plan as c_plan',
  'c.choice as c_choice',
  'c.active as c_active',
] as const;

/**
 * The access to a project (`sc`, one row): the session ($session; null when already read) of the user, the project
 * ($parent) and its client, and whether the caller may see them. A session that ended finds no project.
 */
export const withProjectAccess = (db: Kysely<DB>, p: AccessValues) =>
  db.with('sc', (db) =>
    db
      .selectFrom(liveSession(db, p))
      .leftJoin('buckets as b', (j) =>
        j
          .on('b.stamp', '=', p.parent)
          .on('b.active', '=', sql.lit(1))
          .on((eb) => eb.ref('s.live')),
      )
      .leftJoin('clients as c', 'c.stamp', 'b.client')
      .select((eb) => [
        's.live',
        'b.stamp',
        'b.name',
        'b.created_at',
        'b.run_count',
        'b.rend_count',
        ...CLIENT_READS,
        allowedIn(eb as unknown as ExpressionBuilder<DB & { c: DB['clients'] }, 'c'>, p),
      ]),
  );

/** The access to a client (`sc`, one row): the session, the client ($parent), whether the caller may see it. */
export const withClientAccess = (db: Kysely<DB>, p: AccessValues) =>
  db.with('sc', (db) =>
    db
      .selectFrom(liveSession(db, p))
      .leftJoin('clients as c', (j) => j.on('c.stamp', '=', p.parent).on((eb) => eb.ref('s.live')))
      .select((eb) => ['s.live', ...CLIENT_READS, allowedIn(eb as unknown as ExpressionBuilder<DB & { c: DB['clients'] }, 'c'>, p)]),
  );

/** A condition for a page's rows: the caller may see the parent and the call lists active rows. */
export const seen = (p: AccessValues) => sql<boolean>`(select sc.allowed from sc) and ${p.listed}::boolean`;

/** The access row's columns (kind 0), shared by every list's union: the client's, and the project's when it has one. */
export const CLIENT_COLUMNS = {
  live: ownColumn<boolean>('boolean'),
  allowed: ownColumn<boolean>('boolean'),
  c_stamp: columnOf('clients', 'stamp'),
  c_name: columnOf('clients', 'name'),
  c_plan: columnOf('clients', 'plan'),
  c_choice: columnOf('clients', 'choice'),
  c_active: columnOf('clients', 'active'),
} satisfies UnionColumns;

/** A project's columns: the project page's access row and the project list's rows share them. */
export const PROJECT_COLUMNS = {
  stamp: columnOf('buckets', 'stamp'),
  name: columnOf('buckets', 'name'),
  created_at: columnOf('buckets', 'created_at'),
  seq: columnOf('buckets', 'seq'),
  run_count: columnOf('buckets', 'run_count'),
  rend_count: columnOf('buckets', 'rend_count'),
} satisfies UnionColumns;

export const ACCESS_COLUMNS = { ...CLIENT_COLUMNS, ...PROJECT_COLUMNS };
type AccessRow = UnionRow<typeof ACCESS_COLUMNS>;

/** The access row of a list's union (kind 0), from `sc`: the columns `sc` has (`withProjectAccess`, `withClientAccess`). */
export function accessPart<D, TB extends keyof D, Cs extends UnionColumns>(
  from: SelectQueryBuilder<D, TB, object>,
  columns: Cs,
  project: boolean,
) {
  const filled = Object.keys(project ? ACCESS_COLUMNS : CLIENT_COLUMNS).filter((c) => c !== 'seq');
  return unionPart(from, columns, 0, () => Object.fromEntries(filled.map((c) => [c, sql.ref(`sc.${c}`)])) as unknown as Fills<Cs>);
}

/** The access row found, or why not: 401 for a session that ended (before anything else), 404, 403. */
export function checkAccess(
  caller: Caller,
  row: Pick<AccessRow, 'live' | 'allowed' | 'c_stamp'> & { stamp?: string | null },
  what: 'Project' | 'Client',
) {
  sessionRead(caller, !!row.live);
  if (what === 'Project' && row.stamp === null) throw notFound('Project');
  if (row.c_stamp === null) throw notFound('Client');
  if (!row.allowed) throw forbidden();
}

/** The client of an access row. */
export const clientOf = (row: AccessRow): Client =>
  clientView({ stamp: row.c_stamp!, name: row.c_name!, plan: row.c_plan!, choice: row.c_choice!, active: row.c_active! });

/**
 * The rows of a project list's statement `name` (one statement per `shape`): `build` gives the union after the
 * access row, its rows' columns `columns` (ACCESS_COLUMNS and the list's own). The access row is checked (401, 404,
 * 403) and taken out; the rest are the list's, in no set order.
 */
export async function projectPage<R extends { k: number }, P extends ListValues>(
  db: Kysely<DB>,
  caller: Caller,
  values: P,
  name: string,
  shape: string,
  build: (db: Kysely<DB>, p: P) => Compilable<R>,
): Promise<{ project: Project; client: Client; rows: R[] }> {
  const found = await run(db, statement(name, shape, build), values);
  const at = found.findIndex((r) => r.k === 0);
  const [p] = found.splice(at, 1) as unknown as AccessRow[];
  checkAccess(caller, p, 'Project');
  return {
    project: projectView(p as AccessRow & { stamp: string; name: string; created_at: number }, {
      runs: p.run_count!,
      rends: p.rend_count!,
    }),
    client: clientOf(p),
    rows: found,
  };
}
