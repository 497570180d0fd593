// Sessions that can be ended: each session token names a row of `sessions`, read on every call (no per-process
// memory), so a logout, a password reset or an operator's revocation holds at once on every API process.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { newId, now } from '../ids';
import { SESSION_TTL_S, type SessionClaims, type Tokens } from './tokens';

/** The session's row while it is current (not ended, not expired, the user's own): alone, or inside a call's statement. */
export const currentSession = (db: Kysely<DB>, sid: string, user: string) =>
  db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sid)
    .where('user_stamp', '=', user)
    .where('ended_at', 'is', null)
    .where('expires_at', '>=', now());

export class Sessions {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly tokens: Tokens,
  ) {}

  /** A new session and its token; `ttlS` other than the default is for tests of expiry. */
  async start(user: SessionClaims, ttlS = SESSION_TTL_S): Promise<string> {
    const t = now();
    const sid = newId('s_');
    await this.db
      .insertInto('sessions')
      .values({ id: sid, user_stamp: user.sub, created_at: t, expires_at: t + ttlS, ended_at: null })
      .execute();
    // The user's rows that can never be used again go now, so the table stays the size of the live sessions.
    await this.db
      .deleteFrom('sessions')
      .where('user_stamp', '=', user.sub)
      .where('expires_at', '<', t - SESSION_TTL_S)
      .execute();
    return this.tokens.session({ ...user, sid }, t + ttlS);
  }

  /** Whether the session is still current: not ended, not expired, and the user's own. */
  async current(sid: string, user: string): Promise<boolean> {
    return !!(await currentSession(this.db, sid, user).executeTakeFirst());
  }

  /** A new token for the same session with a new expiry; null when the session is no longer current. */
  async refresh(sid: string, user: SessionClaims): Promise<string | null> {
    const t = now();
    const row = await this.db
      .updateTable('sessions')
      .set({ expires_at: t + SESSION_TTL_S })
      .where('id', '=', sid)
      .where('user_stamp', '=', user.sub)
      .where('ended_at', 'is', null)
      .where('expires_at', '>=', t)
      .returning('id')
      .executeTakeFirst();
    return row ? this.tokens.session({ ...user, sid }, t + SESSION_TTL_S) : null;
  }

  async end(sid: string): Promise<void> {
    await this.db.updateTable('sessions').set({ ended_at: now() }).where('id', '=', sid).where('ended_at', 'is', null).execute();
  }

  /** Ends every session of a user (a password reset), inside the caller's transaction. */
  static async endAll(trx: Transaction<DB> | Kysely<DB>, user: string): Promise<void> {
    await trx.updateTable('sessions').set({ ended_at: now() }).where('user_stamp', '=', user).where('ended_at', 'is', null).execute();
  }
}
