// Operator commands: set a client's plan and choice, grant and revoke membership, list users and clients, rotate keys.
import type { Kysely } from 'kysely';
import { CHOICES, PLANS } from '@portal/core';
import { userByEmail } from './emails';
import { lockClientRow, teamChange, withdrawInvitesOf } from './team';
import type { DB } from './db/schema';
import type { Config } from './config';
import type { Secrets } from './auth/secrets';
import { KeyError, rotateEncryption, rotateSigning } from './auth/keys';
import { now } from './ids';
import { OPERATOR, audit } from './audit';
import { BackupError, writeBackup } from './backup';

/** What an admin command works on: the database, and for rotate-keys the configuration and the live keys. */
export interface AdminContext {
  db: Kysely<DB>;
  config: Config;
  secrets: Secrets;
  /** The embedded database's consistent copy (admin backup); absent on PostgreSQL. */
  snapshot?: () => Promise<Blob>;
}

export class AdminError extends Error {}

/** A client by id, or by name when exactly one client has that name (case-insensitive). */
export async function findClient(db: Kysely<DB>, idOrName: string) {
  const byId = await db.selectFrom('clients').selectAll().where('stamp', '=', idOrName).executeTakeFirst();
  if (byId) return byId;
  const byName = await db
    .selectFrom('clients')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['name']), '=', idOrName.toLowerCase()))
    .execute();
  if (byName.length === 1) return byName[0];
  if (byName.length > 1)
    throw new AdminError(`Several clients are named "${idOrName}": use the id (${byName.map((c) => c.stamp).join(', ')}).`);
  throw new AdminError(`No client with id or name "${idOrName}". List them with: portal-server admin clients`);
}

export async function setPlan(db: Kysely<DB>, client: string, plan: string) {
  if (!(PLANS as readonly string[]).includes(plan)) throw new AdminError(`Plan must be one of ${PLANS.join(', ')}.`);
  const c = await findClient(db, client);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('clients').set({ plan }).where('stamp', '=', c.stamp).execute();
    await audit(trx, { client: c.stamp, actor: OPERATOR, action: 'client.plan', target: c.name, detail: `${c.plan} -> ${plan}` });
  });
  return `Client ${c.name} (${c.stamp}) is now on the ${plan} plan.`;
}

export async function setChoice(db: Kysely<DB>, client: string, choice: string) {
  if (!(CHOICES as readonly string[]).includes(choice)) throw new AdminError(`Choice must be one of ${CHOICES.join(', ')}.`);
  const c = await findClient(db, client);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('clients').set({ choice }).where('stamp', '=', c.stamp).execute();
    await audit(trx, { client: c.stamp, actor: OPERATOR, action: 'client.choice', target: c.name, detail: `${c.choice} -> ${choice}` });
  });
  return `Client ${c.name} (${c.stamp}) now has choice ${choice}.`;
}

async function findUser(db: Kysely<DB>, email: string) {
  const user = await userByEmail(db, email);
  if (!user) throw new AdminError(`No user with email ${email}.`);
  return user;
}

export async function grant(db: Kysely<DB>, email: string, client: string) {
  const user = await findUser(db, email);
  const c = await findClient(db, client);
  // A client with no members gets its new member as owner; otherwise a grant makes a member (owners promote).
  const role = await teamChange(db, async (trx) => {
    await lockClientRow(trx, c.stamp);
    const anyone = await trx.selectFrom('permissions').select('user_stamp').where('client_stamp', '=', c.stamp).executeTakeFirst();
    const role = anyone ? 'member' : 'owner';
    const added = await trx
      .insertInto('permissions')
      .values({ user_stamp: user.stamp, client_stamp: c.stamp, created_at: now(), role })
      .onConflict((oc) => oc.doNothing())
      .returning('role')
      .executeTakeFirst();
    if (added) await audit(trx, { client: c.stamp, actor: OPERATOR, action: 'member.grant', target: user.email, detail: role });
    return added?.role ?? null;
  });
  if (!role) return `${user.email} is already a member of ${c.name} (${c.stamp}).`;
  return `${user.email} is ${role === 'owner' ? 'an owner' : 'a member'} of ${c.name} (${c.stamp}).`;
}

/**
 * Ends a member's access to a client at once: every call checks membership in the database, on every API process.
 * The client's API keys are the client's, not the member's: they keep working until removed in the portal.
 */
export async function revoke(db: Kysely<DB>, email: string, client: string) {
  const user = await findUser(db, email);
  const c = await findClient(db, client);
  const { left, promoted } = await teamChange(db, async (trx) => {
    await lockClientRow(trx, c.stamp);
    const gone = await trx
      .deleteFrom('permissions')
      .where('user_stamp', '=', user.stamp)
      .where('client_stamp', '=', c.stamp)
      .returning('user_stamp')
      .executeTakeFirst();
    if (!gone) throw new AdminError(`${user.email} is not a member of ${c.name} (${c.stamp}).`);
    await audit(trx, { client: c.stamp, actor: OPERATOR, action: 'member.revoke', target: user.email });
    await withdrawInvitesOf(trx, c.stamp, user.stamp, OPERATOR, now());
    const rest = await trx
      .selectFrom('permissions as p')
      .innerJoin('users as u', 'u.stamp', 'p.user_stamp')
      .select(['p.user_stamp', 'p.role', 'u.email'])
      .where('p.client_stamp', '=', c.stamp)
      .orderBy('p.created_at')
      .execute();
    // A client always has an owner while it has members: the earliest remaining member becomes one.
    if (!rest.length || rest.some((r) => r.role === 'owner')) return { left: rest.length, promoted: null };
    await trx
      .updateTable('permissions')
      .set({ role: 'owner' })
      .where('client_stamp', '=', c.stamp)
      .where('user_stamp', '=', rest[0].user_stamp)
      .execute();
    await audit(trx, { client: c.stamp, actor: OPERATOR, action: 'member.role', target: rest[0].email, detail: 'owner' });
    return { left: rest.length, promoted: rest[0].email };
  });
  return (
    `${user.email} is no longer a member of ${c.name} (${c.stamp}).` +
    (promoted ? ` ${promoted} is now its owner (the earliest remaining member).` : '') +
    (left === 0 ? ' The client has no members left: grant one with portal-server admin grant <email> <client>.' : '') +
    ' API keys of the client keep working until they are removed.'
  );
}

export async function rotateKeys(ctx: AdminContext, flags: string[]) {
  const unknown = flags.filter((f) => f !== '--signing' && f !== '--encryption');
  if (unknown.length || !flags.length)
    throw new AdminError('usage: portal-server admin rotate-keys [--signing] [--encryption] (one or both)');
  const out: string[] = [];
  try {
    if (flags.includes('--encryption')) out.push(await rotateEncryption(ctx.db, ctx.config, ctx.secrets));
    if (flags.includes('--signing')) out.push(await rotateSigning(ctx.db, ctx.config, ctx.secrets));
  } catch (err) {
    if (err instanceof KeyError) throw new AdminError([...out, err.message].join('\n'));
    throw err;
  }
  return out.join('\n');
}

export async function listUsers(db: Kysely<DB>) {
  const users = await db.selectFrom('users').select(['stamp', 'email', 'username', 'created_at']).orderBy('created_at').execute();
  const perms = await db
    .selectFrom('permissions')
    .innerJoin('clients', 'clients.stamp', 'permissions.client_stamp')
    .select(['permissions.user_stamp', 'clients.name'])
    .execute();
  return users.map((u) => ({
    id: u.stamp,
    email: u.email,
    username: u.username,
    clients: perms.filter((p) => p.user_stamp === u.stamp).map((p) => p.name),
  }));
}

export async function listClients(db: Kysely<DB>) {
  const clients = await db.selectFrom('clients').selectAll().orderBy('created_at').execute();
  return clients.map((c) => ({ id: c.stamp, name: c.name, plan: c.plan, choice: c.choice, active: c.active }));
}

/** Rows as an aligned text table for the terminal. */
export function table(rows: Array<Record<string, unknown>>): string {
  if (!rows.length) return '(none)';
  const keys = Object.keys(rows[0]);
  const cell = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v ?? ''));
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(keys.map((k) => k.toUpperCase())), ...rows.map((r) => line(keys.map((k) => cell(r[k]))))].join('\n');
}

/** One admin command by name, as the CLI and the running server's admin route both call it. */
export async function runAdmin(ctx: AdminContext, command: string, args: string[], json = false): Promise<string> {
  const { db } = ctx;
  const need = (n: number, usage: string) => {
    if (args.length !== n) throw new AdminError(`usage: portal-server admin ${usage}`);
  };
  switch (command) {
    case 'set-plan':
      need(2, 'set-plan <client> <plan>');
      return setPlan(db, args[0], args[1]);
    case 'set-choice':
      need(2, 'set-choice <client> <choice>');
      return setChoice(db, args[0], args[1]);
    case 'grant':
      need(2, 'grant <email> <client>');
      return grant(db, args[0], args[1]);
    case 'revoke':
      need(2, 'revoke <email> <client>');
      return revoke(db, args[0], args[1]);
    case 'rotate-keys':
      return rotateKeys(ctx, args);
    case 'backup':
      need(1, 'backup <file>');
      return writeBackup(args[0], { db, dataDir: ctx.config.dataDir, storageUrl: ctx.config.storageUrl, snapshot: ctx.snapshot }).catch(
        (err: unknown) => {
          throw err instanceof BackupError ? new AdminError(err.message) : err;
        },
      );
    case 'users': {
      const rows = await listUsers(db);
      return json ? JSON.stringify(rows, null, 2) : table(rows);
    }
    case 'clients': {
      const rows = await listClients(db);
      return json ? JSON.stringify(rows, null, 2) : table(rows);
    }
    default:
      throw new AdminError(`Unknown admin command "${command}".`);
  }
}
