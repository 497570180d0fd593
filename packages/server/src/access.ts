// Tenancy: every resource is reached through the client that owns it, and the caller must be a member of that client.
import { sql, type Kysely, type QueryCreator, type Selectable } from 'kysely';
import type { DB } from './db/schema';
import type { ClientTable } from './db/schema';
import { TEAM_MESSAGES, type Role } from '@portal/core';
import { forbidden, notFound, tokenExpired } from './errors';
import type { Caller } from './services';
import { currentSession } from './auth/sessions';
import { now } from './ids';
import { run, statement } from './db/statements';

/** The session a call's own statement must read (calls with `sessionInQuery`), or null when it was read already. */
export const sessionToCheck = (caller: Caller): string | null =>
  caller.kind === 'user' && caller.sessionPending ? (caller.session ?? '') : null;

/** What the call's statement found about the session: 401 'Token expired' for one that ended. */
export function sessionRead(caller: Caller, live: boolean): void {
  if (!live) throw tokenExpired();
  if (caller.kind === 'user') caller.sessionPending = false;
}

/**
 * Before a call answers that something is not there, the session it has not read yet is read on its own: a token
 * whose session ended learns nothing, not even whether an id exists.
 */
async function sessionBeforeNotFound(db: Kysely<DB>, caller: Caller): Promise<void> {
  const sid = sessionToCheck(caller);
  if (sid !== null && caller.kind === 'user') sessionRead(caller, !!(await currentSession(db, sid, caller.stamp).executeTakeFirst()));
}

export async function memberClientStamps(db: Kysely<DB>, caller: Caller): Promise<string[]> {
  if (caller.kind === 'key') return [caller.client];
  const rows = await db.selectFrom('permissions').select('client_stamp').where('user_stamp', '=', caller.stamp).execute();
  return rows.map((r) => r.client_stamp);
}

/**
 * The client and the caller's role in it, in one read, on every call (so a removed member loses access at once on
 * every API process); 404 for an unknown id, 403 for someone else's. A client API key has no role.
 */
export async function requireMembership(
  db: Kysely<DB>,
  caller: Caller,
  stamp: string,
): Promise<{ client: Selectable<ClientTable>; role: Role | null }> {
  const user = caller.kind === 'user' ? caller.stamp : '';
  // A call with `sessionInQuery` reads its session row in this same statement.
  const sid = sessionToCheck(caller);
  const row = await db
    .selectFrom('clients as c')
    .selectAll('c')
    .select((eb) =>
      eb
        .selectFrom('permissions as p')
        .select('p.role')
        .whereRef('p.client_stamp', '=', 'c.stamp')
        .where('p.user_stamp', '=', user)
        .as('member_role'),
    )
    .select((eb) => (sid === null ? sql<boolean>`true`.as('live') : eb.exists(currentSession(db, sid, user)).as('live')))
    .where('c.stamp', '=', stamp)
    .executeTakeFirst();
  if (!row) {
    await sessionBeforeNotFound(db, caller);
    throw notFound('Client');
  }
  const { member_role, live, ...client } = row;
  if (sid !== null) sessionRead(caller, !!live);
  if (caller.kind === 'key' ? caller.client !== client.stamp : member_role == null) throw forbidden();
  return { client, role: (member_role as Role | null) ?? null };
}

/** The client if it exists and the caller belongs to it; 404 for an unknown id, 403 for someone else's. */
export async function requireClient(db: Kysely<DB>, caller: Caller, stamp: string): Promise<Selectable<ClientTable>> {
  return (await requireMembership(db, caller, stamp)).client;
}

/** The client if the caller is one of its owners; a member gets 403 with `message`. */
export async function requireOwner(db: Kysely<DB>, caller: Caller, stamp: string, message: string = TEAM_MESSAGES.ownersOnly) {
  const m = await requireMembership(db, caller, stamp);
  if (m.role !== 'owner') throw forbidden(message);
  return m.client;
}

/**
 * `restoring`: the caller is putting back a removed item (a remove call with active=1, the portal's Undo), so a removed
 * row is found too; its parents must still be there. Access is the same as for removing it.
 */
export interface Lookup {
  restoring?: boolean;
}

/** The values a session check needs: the session to read (null when read already), its user, the time now. */
export interface SessionValues {
  session: string | null;
  user: string;
  now: number;
}

/** One row, `s.live`: whether the session is live (none to read, or one of the user's that has not ended). */
export const liveSession = (db: object, p: SessionValues) =>
  (db as QueryCreator<DB>)
    .selectNoFrom((eb) =>
      eb
        .or([
          sql<boolean>`${p.session}::text is null`,
          eb.exists(
            eb
              .selectFrom('sessions')
              .select(sql.lit(1).as('one'))
              .where('id', '=', p.session)
              .where('user_stamp', '=', p.user)
              .where('ended_at', 'is', null)
              .where('expires_at', '>=', p.now),
          ),
        ])
        .as('live'),
    )
    .as('s');

/**
 * A project's access in one prepared statement: the session row (null when already read), the project (a removed
 * one too when restoring), its client and the caller's role there. A session that ended finds nothing, so it learns
 * nothing.
 */
const projectAccess = (restoring: boolean) =>
  statement('project_access', restoring ? 'removed too' : 'active', (db, p: SessionValues & { project: string; least: number }) =>
    db
      .selectFrom(liveSession(db, p))
      .leftJoin('buckets as b', (j) =>
        j
          .on('b.stamp', '=', p.project)
          .on('b.active', '>=', sql<number>`${p.least}::int`)
          .on((eb) => eb.ref('s.live')),
      )
      .leftJoin('clients as c', 'c.stamp', 'b.client')
      .select((eb) => [
        's.live',
        sql<Selectable<DB['buckets']> | null>`row_to_json(b)`.as('bucket'),
        sql<Selectable<ClientTable> | null>`row_to_json(c)`.as('client'),
        eb
          .selectFrom('permissions as pm')
          .select('pm.role')
          .whereRef('pm.client_stamp', '=', 'c.stamp')
          .where('pm.user_stamp', '=', p.user)
          .$castTo<Role | null>()
          .as('member_role'),
      ]),
  );

/**
 * The project and its client if the caller may reach it, in one statement: 401 for a session that ended (before
 * anything else), 404 for an unknown (or removed) project, 403 for someone else's.
 */
export async function requireProject(db: Kysely<DB>, caller: Caller, stamp: string, { restoring = false }: Lookup = {}) {
  const user = caller.kind === 'user' ? caller.stamp : '';
  const sid = sessionToCheck(caller);
  const [row] = await run(db, projectAccess(restoring), { project: stamp, user, session: sid, now: now(), least: restoring ? 0 : 1 });
  if (sid !== null) sessionRead(caller, !!row.live);
  const { bucket: project, client, member_role } = row;
  if (!project) throw notFound('Project');
  if (!client) throw notFound('Client');
  if (caller.kind === 'key' ? caller.client !== client.stamp : member_role == null) throw forbidden();
  return { project, client };
}

export async function requireUpload(db: Kysely<DB>, caller: Caller, stamp: string, { restoring = false }: Lookup = {}) {
  const upload = await db
    .selectFrom('rends')
    .selectAll()
    .where('stamp', '=', stamp)
    .where('active', 'in', restoring ? [0, 1] : [1])
    .executeTakeFirst();
  if (!upload) throw notFound('Upload');
  return { upload, ...(await requireProject(db, caller, upload.bucket)) };
}

export async function requireFile(db: Kysely<DB>, caller: Caller, stamp: string) {
  const file = await db.selectFrom('uploads').selectAll().where('stamp', '=', stamp).executeTakeFirst();
  if (!file) throw notFound('Upload');
  return { file, ...(await requireUpload(db, caller, file.rend)) };
}

export async function requireRun(db: Kysely<DB>, caller: Caller, stamp: string, { restoring = false }: Lookup = {}) {
  const run = await db
    .selectFrom('runs')
    .selectAll()
    .where('stamp', '=', stamp)
    .where('active', 'in', restoring ? [0, 1] : [1])
    .executeTakeFirst();
  if (!run) throw notFound('Request');
  return { run, ...(await requireProject(db, caller, run.bucket)) };
}

export async function requireModel(db: Kysely<DB>, caller: Caller, stamp: string, { restoring = false }: Lookup = {}) {
  const model = await db
    .selectFrom('models')
    .selectAll()
    .where('stamp', '=', stamp)
    .where('active', 'in', restoring ? [0, 1] : [1])
    .executeTakeFirst();
  if (!model) throw notFound('Model');
  // General models belong to nobody: they cannot be renamed or removed by a client.
  if (!model.bucket) throw forbidden();
  return { model, ...(await requireProject(db, caller, model.bucket)) };
}

export async function requireQuote(db: Kysely<DB>, caller: Caller, stamp: string) {
  const quote = await db.selectFrom('quotes').selectAll().where('stamp', '=', stamp).where('active', '=', 1).executeTakeFirst();
  if (!quote) throw notFound('Quote');
  return { quote, ...(await requireProject(db, caller, quote.bucket)) };
}

export async function requireApiKey(db: Kysely<DB>, caller: Caller, clue: string) {
  const key = await db.selectFrom('apikeys').selectAll().where('clue', '=', clue).where('active', '=', 1).executeTakeFirst();
  if (!key) throw notFound('API key');
  return { key, client: await requireClient(db, caller, key.client) };
}

export async function requireIntegration(db: Kysely<DB>, caller: Caller, clue: string) {
  const key = await db.selectFrom('integrations').selectAll().where('clue', '=', clue).where('active', '=', 1).executeTakeFirst();
  if (!key) throw notFound('Integration');
  return { key, client: await requireClient(db, caller, key.client) };
}

export async function requirePile(db: Kysely<DB>, caller: Caller, stamp: string) {
  const pile = await db.selectFrom('piles').selectAll().where('stamp', '=', stamp).executeTakeFirst();
  if (!pile) throw notFound('Parameters');
  return { pile, ...(await requireProject(db, caller, pile.bucket)) };
}
