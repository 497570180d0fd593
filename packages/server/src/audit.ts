// The client's audit log: who did what to which member, invitation, key, integration or quote, written in the same
// transaction as the change where there is one, read newest first with a cursor, kept at least 400 days.
import type { Kysely, Transaction } from 'kysely';
import { AUDIT_RETENTION_DAYS, type AuditAction } from '@portal/core';
import type { DB } from './db/schema';
import type { Caller } from './auth/caller';
import { now } from './ids';

export interface Actor {
  stamp: string;
  email: string;
}

/** The operator (`portal-server admin ...`) and the payment portal act without a user. */
export const OPERATOR: Actor = { stamp: 'operator', email: 'operator' };
export const PAYMENT_PORTAL: Actor = { stamp: 'payment', email: 'payment portal' };

/** A user is named by their email; a client API key by its id. */
export const actorOf = (caller: Caller): Actor =>
  caller.kind === 'user' ? { stamp: caller.stamp, email: caller.email } : { stamp: caller.clue, email: `API key ${caller.clue}` };

export interface AuditLine {
  client: string;
  actor: Actor;
  action: AuditAction;
  target?: string;
  detail?: string;
}

export async function audit(db: Kysely<DB> | Transaction<DB>, ...lines: AuditLine[]): Promise<void> {
  if (!lines.length) return;
  const at = now();
  await db
    .insertInto('audit')
    .values(
      lines.map((l) => ({
        client: l.client,
        at,
        actor_stamp: l.actor.stamp,
        actor_email: l.actor.email,
        action: l.action,
        target: l.target ?? '',
        detail: l.detail ?? '',
      })),
    )
    .execute();
}

export const AUDIT_RETENTION_S = AUDIT_RETENTION_DAYS * 24 * 60 * 60;

/** Housekeeping: lines older than the retention period go. */
export async function pruneAudit(db: Kysely<DB>, nowS = now()): Promise<number> {
  const r = await db
    .deleteFrom('audit')
    .where('at', '<', nowS - AUDIT_RETENTION_S)
    .executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}
