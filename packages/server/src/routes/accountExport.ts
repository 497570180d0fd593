// The export of everything an account holds (issue 30): one JSON text written a page at a time, so memory stays
// bounded whatever the account holds. Its sections are a table: where each one's rows are, and how a row is written.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { ACCOUNT_EXPORT_ROWS_MAX, accountExportName, type AccountExportSection, type CallResponse } from '@portal/core';
import { defineCall, type CallServices } from './define';
import { accountRow } from './proof';
import { accountCaller } from './account';
import { now } from '../ids';
import type { Services } from '../services';
import type { DB } from '../db/schema';

/** What the export uses: a call's own services and whether two-factor sign-in is on. */
export type AccountExportServices = CallServices & Pick<Services, 'otp'>;

const EXPORT_PAGE = 500;
type Row = Record<string, unknown>;
type Db = Services['db'];

/** The user's own rows, as subqueries: the clients they belong to (and own), those clients' projects and uploads. */
function scopeOf(db: Db, user: string) {
  const clients = db.selectFrom('permissions').select('client_stamp').where('user_stamp', '=', user);
  const owned = db.selectFrom('permissions').select('client_stamp').where('user_stamp', '=', user).where('role', '=', 'owner');
  const projects = db.selectFrom('buckets').select('stamp').where('client', 'in', clients);
  const uploads = db.selectFrom('rends').select('stamp').where('bucket', 'in', projects);
  return { user, clients, owned, projects, uploads };
}
type Scope = ReturnType<typeof scopeOf>;

/** A section's next page: its rows after `after` in the order of its `seq` column (set by the export, below). */
type Page = <D, TB extends keyof D, O>(qb: SelectQueryBuilder<D, TB, O>) => Promise<O[]>;

/** One section: its rows (a select with `seq`, paged by `page`), and a row as the export writes it. */
interface Section<R> {
  rows(db: Db, scope: Scope, page: Page): Promise<R[]>;
  /** The column that orders and pages the rows: `c.seq` where the section's table is joined as `c`. */
  seq?: 'c.seq';
  out(r: R): Row;
}
type Paged = { seq: number | string };
/** Types each section's row from its own select (the table below holds them all). */
const section = <R extends Paged>(s: Section<R>) => s as unknown as Section<Paged>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * What the export calls a column: its name in camelCase, in the product's words where the wire's differ (a rend is an
 * upload), and as a number where it is one (pg answers bigint columns as text). One table, so every section says it alike.
 */
const EXPORT_NAMES: Readonly<Record<string, string>> = {
  bucket: 'project',
  rend: 'upload',
  run: 'request',
  flight: 'state',
  desc: 'description',
  checksum: 'sha256',
  cols: 'columns',
  clue: 'id',
  run_at: 'ranAt',
};
const NUMBER_COLUMNS = new Set([
  'at',
  'created_at',
  'started_at',
  'finished_at',
  'installed_at',
  'run_at',
  'size',
  'cols',
  'rows',
  'inputs',
  'dimensions',
  'installs',
  'runs',
]);
const exportName = (column: string) => EXPORT_NAMES[column] ?? column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A section that is one table's rows whose `column` is the user (`within` 'user') or in one of the user's sets, each
 * row written as its `columns`, in their order, under their export names.
 */
function fromTable<T extends keyof DB>(
  table: T,
  column: keyof DB[T] & string,
  within: Exclude<keyof Scope, 'user'> | 'user',
  columns: ReadonlyArray<keyof DB[T] & string>,
): Section<Paged> {
  const fields = columns.map((c) => [exportName(c), c, NUMBER_COLUMNS.has(c)] as const);
  // The table is the caller's choice, so the builder is typed loosely here; `columns` and `column` are checked above.
  return {
    rows: (db, scope, page) =>
      page(
        (db as Kysely<any>)
          .selectFrom(table as string)
          .select(['seq', ...columns])
          .where(column as string, within === 'user' ? '=' : 'in', scope[within]),
      ),
    out: (r) => Object.fromEntries(fields.map(([name, c, isNumber]) => [name, isNumber ? num((r as Row)[c]) : (r as Row)[c]])),
  };
}

/** Every section, in the export's order: the user's own fields only, never a secret, a token or a storage key. */
const SECTIONS: Record<AccountExportSection, Section<Paged>> = {
  clients: section({
    rows: (db, { user }, page) =>
      page(
        db
          .selectFrom('clients as c')
          .innerJoin('permissions as p', 'p.client_stamp', 'c.stamp')
          .select(['c.seq', 'c.stamp', 'c.name', 'c.plan', 'c.choice', 'c.active', 'c.created_at', 'p.role', 'p.created_at as joined_at'])
          .where('p.user_stamp', '=', user),
      ),
    seq: 'c.seq',
    out: (r) => ({
      stamp: r.stamp,
      name: r.name,
      plan: r.plan,
      choice: r.choice,
      active: r.active,
      createdAt: num(r.created_at),
      role: r.role,
      joinedAt: num(r.joined_at),
    }),
  }),
  projects: fromTable('buckets', 'client', 'clients', ['stamp', 'client', 'name', 'active', 'created_at']),
  uploads: fromTable('rends', 'bucket', 'projects', ['stamp', 'bucket', 'name', 'flight', 'active', 'created_at']),
  files: fromTable('uploads', 'rend', 'uploads', [
    'stamp',
    'rend',
    'name',
    'state',
    'file_name',
    'size',
    'checksum',
    'cols',
    'rows',
    'inputs',
    'error',
    'created_at',
  ]),
  requests: fromTable('runs', 'bucket', 'projects', [
    'stamp',
    'bucket',
    'rend',
    'fit',
    'model',
    'quote',
    'name',
    'desc',
    'function',
    'state',
    'message',
    'inputs',
    'dimensions',
    'active',
    'created_at',
    'started_at',
    'finished_at',
  ]),
  models: fromTable('models', 'bucket', 'projects', [
    'stamp',
    'bucket',
    'rend',
    'run',
    'name',
    'desc',
    'state',
    'message',
    'active',
    'created_at',
  ]),
  apikeys: fromTable('apikeys', 'client', 'clients', ['clue', 'client', 'name', 'installs', 'installed_at', 'active', 'created_at']),
  integrations: fromTable('integrations', 'client', 'clients', [
    'clue',
    'client',
    'name',
    'service',
    'runs',
    'run_at',
    'active',
    'created_at',
  ]),
  // The webhook endpoints of the clients the user owns (owners manage them): where they send and what, never a secret.
  webhooks: section({
    rows: (db, { owned }, page) =>
      page(
        db
          .selectFrom('webhook_endpoints')
          .select(['seq', 'stamp', 'client', 'name', 'url', 'events', 'state', 'failing_since', 'created_at'])
          .where('client', 'in', owned),
      ),
    out: (r) => ({
      stamp: r.stamp,
      client: r.client,
      name: r.name,
      url: r.url,
      events: r.events ? r.events.split(',') : [],
      state: r.state,
      failingSince: num(r.failing_since),
      createdAt: num(r.created_at),
    }),
  }),
  // The user's own account-security events.
  events: fromTable('user_events', 'user_stamp', 'user', ['at', 'action', 'target', 'detail']),
  // The audit log of the clients whose log the user may read (owners, as the audit page).
  audit: section({
    rows: (db, { owned }, page) =>
      page(
        db
          .selectFrom('audit')
          .select(['seq', 'client', 'at', 'actor_stamp', 'actor_email', 'action', 'target', 'detail'])
          .where('client', 'in', owned),
      ),
    out: (r) => ({
      client: r.client,
      at: num(r.at),
      actor: { stamp: r.actor_stamp, email: r.actor_email },
      action: r.action,
      target: r.target,
      detail: r.detail,
    }),
  }),
};

/** The export's JSON text, piece by piece: the head, each section a page at a time (ACCOUNT_EXPORT_ROWS_MAX at most), then which were cut. */
export async function* exportText(
  s: Pick<Services, 'db'>,
  user: string,
  head: Row,
  limits = { rows: ACCOUNT_EXPORT_ROWS_MAX, page: EXPORT_PAGE },
): AsyncGenerator<string> {
  const h = JSON.stringify(head);
  yield h.slice(0, -1);
  const scope = scopeOf(s.db, user);
  const truncated: string[] = [];
  for (const [name, { rows, seq = 'seq', out }] of Object.entries(SECTIONS) as Array<[AccountExportSection, Section<Paged>]>) {
    yield `,${JSON.stringify(name)}:[`;
    let after = 0;
    let count = 0;
    let cut = false;
    for (;;) {
      const rowsAfter: Page = (qb) =>
        qb
          .where(sql<boolean>`${sql.ref(seq)} > ${after}`)
          .orderBy(sql.ref(seq))
          .limit(limits.page)
          .execute();
      const page = await rows(s.db, scope, rowsAfter);
      for (const r of page) {
        if (count === limits.rows) {
          cut = true;
          break;
        }
        yield `${count ? ',' : ''}${JSON.stringify(out(r))}`;
        count++;
        after = Number(r.seq);
      }
      if (cut || page.length < limits.page) break;
    }
    if (cut) truncated.push(name);
    yield ']';
  }
  yield `,"truncated":${JSON.stringify(truncated)}}`;
}

/** GET the export: a download of the JSON text, streamed. */
export const accountExportRoutes: FastifyPluginAsyncZod<AccountExportServices> = async (app, s) => {
  defineCall(app, s, 'accountExport', { rateLimit: true }, async ({ caller, reply }) => {
    const me = accountCaller(caller);
    const user = await accountRow(s, me.stamp);
    const head = {
      format: 'portal-account-export' as const,
      version: 1 as const,
      exportedAt: now(),
      user: {
        stamp: user.stamp,
        email: user.email,
        username: user.username,
        createdAt: Number(user.created_at),
        otp: await s.otp.enabled(me.stamp),
      },
    };
    reply.header('content-disposition', `attachment; filename="${accountExportName(user.username, head.exportedAt)}"`);
    reply.header('cache-control', 'no-store');
    reply.type('application/json; charset=utf-8');
    // Answered by the stream (define.ts sends nothing more for a handler that returns its reply).
    return reply.send(Readable.from(exportText(s, me.stamp, head))) as unknown as CallResponse<'accountExport'>;
  });
};
