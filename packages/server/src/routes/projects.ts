// Projects (buckets): list with request and upload counts, create, rename, soft delete (each change in the audit log).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Project } from '@portal/core';
import { defineCall, type CallServices } from './define';
import { defineRenameRemove } from './renameRemove';
import { actorOf, audit } from '../audit';
import { sql } from 'kysely';
import { requireProject, requireClient } from '../access';
import {
  CLIENT_COLUMNS,
  PROJECT_COLUMNS,
  accessPart,
  checkAccess,
  clientOf,
  listValues,
  seen,
  withClientAccess,
  type ListValues,
} from '../projectPage';
import { inListOrder, listOut, newestFirst, pageOf, pageOfRows, pageRows, pageShape, type Page } from '../paging';
import { projectView } from '../views';
import { newId, now } from '../ids';
import { run, statement } from '../db/statements';
import { fillsFrom, unionPart } from '../db/union';
import { badRequest } from '../errors';
import type { Services } from '../services';

/** What the group uses: a call's own services. */
export type ProjectServices = CallServices;

/** The project list's rows: the access row (the client), then the projects. */
const PROJECT_LIST_COLUMNS = { ...CLIENT_COLUMNS, ...PROJECT_COLUMNS };

/**
 * The project list's one statement, for one shape of page: first a row with the session (null when already read),
 * the client and whether the caller may see it (a member, or the client's own API key), then the client's active
 * projects in the page's order. The client's columns come once, not on every project row: a value costs the
 * embedded database about a microsecond to write out, and the HTTP thread one string to read. A session that ended
 * yields no client, a client the caller may not see yields no projects (a condition checked once, before the walk).
 * Each shape of page (its order, a search, a cursor) is its own statement, so every plan is a plain index walk in
 * one direction, prepared once per connection.
 */
const projectListStatement = (page: Page | null, newest: boolean) =>
  statement('project_list', pageShape(page, newest), (db, p: ListValues) => {
    const q = withClientAccess(db, p);
    // The parts after the first read `sc` too, but the `with` is the statement's, written once before the first.
    const plain = db as unknown as typeof q;
    const rows = plain
      .selectFrom('buckets as b')
      .select(['b.stamp', 'b.name', 'b.run_count', 'b.rend_count', 'b.created_at', 'b.seq'])
      .where(seen(p))
      .where('b.client', '=', p.parent)
      .where('b.active', '=', sql.lit(1));
    const projects = unionPart(plain.selectFrom(pageOfRows(plain, rows, 'b', page, newest, p).as('b')), PROJECT_LIST_COLUMNS, 1, () =>
      fillsFrom(PROJECT_LIST_COLUMNS, 'buckets', 'b'),
    );
    return accessPart(q.selectFrom('sc'), PROJECT_LIST_COLUMNS, false).unionAll(projects);
  });

/** A project row as the wire shows it, with the request and upload counts kept on the row. */
export const projectOut = (b: Parameters<typeof projectView>[0] & { run_count: number; rend_count: number }): Project =>
  projectView(b, { runs: b.run_count, rends: b.rend_count });

/** Active projects of these clients, each with its active request and upload counts, oldest first. */
export async function projectsWithCounts(s: Pick<Services, 'db'>, clients: string[], only?: string): Promise<Project[]> {
  if (!clients.length) return [];
  let q = s.db.selectFrom('buckets as b').selectAll('b').where('b.client', 'in', clients).where('b.active', '=', 1);
  if (only) q = q.where('b.stamp', '=', only);
  const rows = await q.orderBy('b.created_at').orderBy('b.seq').execute();
  return rows.map(projectOut);
}

export async function projectWithCounts(s: Pick<Services, 'db'>, client: string, stamp: string): Promise<Project> {
  const [b] = await projectsWithCounts(s, [client], stamp);
  return b;
}

/** `active` in list queries: only 1 (the default) lists anything; soft-deleted items are never listed. */
export function checkActiveFilter(active: number | undefined) {
  if (active !== undefined && active !== 0 && active !== 1) throw badRequest('active: must be 0 or 1');
  return active !== 0;
}

export const projectRoutes: FastifyPluginAsyncZod<ProjectServices> = async (app, s) => {
  // Every page of a project opens with it: the session, membership, the client and a page of its projects (their
  // request and upload counts are kept on the project rows) in one statement, one trip to the database.
  defineCall(app, s, 'bucketList', { keys: true, sessionInQuery: true }, async ({ caller, query }) => {
    const listed = checkActiveFilter(query.active);
    const page = pageOf(query, 'buckets');
    const newest = newestFirst('buckets', page);
    const found = await run(s.db, projectListStatement(page, newest), listValues(query.client, caller, listed, page));
    const [access] = found.splice(
      found.findIndex((r) => r.k === 0),
      1,
    );
    checkAccess(caller, access, 'Client');
    const { rows: list, next } = pageRows(
      inListOrder(found as Array<(typeof found)[number] & { created_at: number; seq: number }>, newest),
      page,
    );
    return {
      client: { list: [clientOf(access)] },
      bucket: listOut(
        list.map((b) => projectOut(b as Parameters<typeof projectOut>[0])),
        next,
      ),
    };
  });

  defineCall(app, s, 'bucketCreate', { keys: true }, async ({ caller, body }) => {
    const client = await requireClient(s.db, caller, body.client);
    const stamp = newId('b_');
    await s.db.transaction().execute(async (trx) => {
      await trx.insertInto('buckets').values({ stamp, client: client.stamp, name: body.name, active: 1, created_at: now() }).execute();
      await audit(trx, { client: client.stamp, actor: actorOf(caller), action: 'project.create', target: stamp, detail: body.name });
    });
    return { bucket: await projectWithCounts(s, client.stamp, stamp) };
  });

  defineRenameRemove(app, s, 'project', {
    find: (caller, stamp, lookup) => requireProject(s.db, caller, stamp, lookup),
    row: 'project',
    renameOptions: { keys: true },
    renamed: async (project) => ({ bucket: await projectWithCounts(s, project.client, project.stamp) }),
  });
};
