// Team changes run one at a time per client: every member, role and invitation change locks the client's row first,
// then reads the caller's role, so two owners acting at once on any API process see each other's result.
import type { Kysely, Transaction } from 'kysely';
import { TEAM_MESSAGES } from '@portal/core';
import { requireMembership } from './access';
import { audit, type Actor } from './audit';
import { conflict, forbidden, notFound } from './errors';
import type { DB } from './db/schema';
import type { Caller } from './services';

/**
 * Locks the client (SELECT ... FOR UPDATE on PostgreSQL; the embedded database has one connection, which serialises
 * the transaction the same way), then answers the client and the caller's role read under that lock.
 */
export async function lockClient(trx: Transaction<DB>, caller: Caller, stamp: string) {
  if (!(await lockClientRow(trx, stamp))) throw notFound('Client');
  return requireMembership(trx, caller, stamp);
}

/** Takes the client's lock until the transaction ends; false when there is no such client. */
export async function lockClientRow(trx: Transaction<DB>, stamp: string): Promise<boolean> {
  return !!(await trx.selectFrom('clients').select('stamp').where('stamp', '=', stamp).forUpdate().executeTakeFirst());
}

/** lockClient for a change only owners may make. */
export async function lockClientAsOwner(trx: Transaction<DB>, caller: Caller, stamp: string) {
  const m = await lockClient(trx, caller, stamp);
  if (m.role !== 'owner') throw forbidden(TEAM_MESSAGES.ownersOnly);
  return m.client;
}

/**
 * Withdraws the pending invitations `user` sent to this client, in the caller's transaction: an invitation is only as
 * good as its sender's right to invite, which ends when they are removed, demoted, leave or are revoked.
 */
export async function withdrawInvitesOf(trx: Transaction<DB>, client: string, user: string, actor: Actor, at: number) {
  const gone = await trx
    .updateTable('invites')
    .set({ withdrawn_at: at })
    .where('client', '=', client)
    .where('invited_by', '=', user)
    .where('used_at', 'is', null)
    .where('withdrawn_at', 'is', null)
    .returning('email')
    .execute();
  if (gone.length)
    await audit(
      trx,
      ...gone.map((i) => ({
        client,
        actor,
        action: 'member.invite.withdraw' as const,
        target: i.email,
        detail: TEAM_MESSAGES.senderNoLongerOwner,
      })),
    );
  return gone.length;
}

/**
 * Runs a team change in a transaction. The database refuses a commit that leaves a client's members without an owner
 * (migration 11's deferred trigger); the rules above it should never let that happen, and if they do it is a 409.
 */
export async function teamChange<T>(db: Kysely<DB>, change: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(change);
  } catch (err) {
    if ((err as { constraint?: string }).constraint === 'client_keeps_owner') throw conflict(TEAM_MESSAGES.lastOwnerDemote);
    throw err;
  }
}
