// Sessions that can be ended: each session token names a row of `sessions`, read on every call (no per-process
// memory), so a logout, a password reset or an operator's revocation holds at once on every API process.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { newId, now } from '../ids';
import type { CallResponse } from '@portal/core';
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

/** What the server saw of the client that began a session. */
export interface SessionSeen {
  address?: string | null;
  userAgent?: string | null;
}
const TOUCH_EVERY_S = 60;
/** Sessions whose last write this process remembers; past this many, those older than TOUCH_EVERY_S are forgotten. */
const TOUCHED_MAX = 10_000;
const SEEN_MAX = 512;
const clip = (v: string | null | undefined): string | null => (v ? v.slice(0, SEEN_MAX) : null);

type SessionView = CallResponse<'sessionList'>['session']['list'][number];

/** Addresses not signed in from for this long are forgotten (a sign-in from one is new again). */
export const KNOWN_ADDRESS_DAYS = 400;

/** Whether the account signed in from this address before (within KNOWN_ADDRESS_DAYS). */
export async function knownAddress(db: Kysely<DB>, user: string, address: string): Promise<boolean> {
  const row = await db
    .selectFrom('known_addresses')
    .select('address')
    .where('user_stamp', '=', user)
    .where('address', '=', clip(address)!)
    .where('last_at', '>=', now() - KNOWN_ADDRESS_DAYS * 86_400)
    .executeTakeFirst();
  return !!row;
}

/** Notes a sign-in from this address, and forgets the account's addresses not used for KNOWN_ADDRESS_DAYS. */
async function rememberAddress(db: Kysely<DB>, user: string, address: string, t: number): Promise<void> {
  await db
    .insertInto('known_addresses')
    .values({ user_stamp: user, address, first_at: t, last_at: t })
    .onConflict((oc) => oc.columns(['user_stamp', 'address']).doUpdateSet({ last_at: t }))
    .execute();
  await db
    .deleteFrom('known_addresses')
    .where('user_stamp', '=', user)
    .where('last_at', '<', t - KNOWN_ADDRESS_DAYS * 86_400)
    .execute();
}

export class Sessions {
  /** When this process last wrote each session's last use: within TOUCH_EVERY_S of it, a call writes nothing. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly tokens: Tokens,
  ) {}

  /** A new session and its token; `ttlS` other than the default is for tests of expiry. */
  async start(user: SessionClaims, ttlS = SESSION_TTL_S, seen: SessionSeen = {}): Promise<string> {
    const t = now();
    const sid = newId('s_');
    const row = {
      id: sid,
      user_stamp: user.sub,
      created_at: t,
      expires_at: t + ttlS,
      ended_at: null,
      last_used_at: t,
      address: clip(seen.address),
      user_agent: clip(seen.userAgent),
    };
    await this.db.insertInto('sessions').values(row).execute();
    // The user's rows that can never be used again go now, so the table stays the size of the live sessions.
    await this.db
      .deleteFrom('sessions')
      .where('user_stamp', '=', user.sub)
      .where('expires_at', '<', t - SESSION_TTL_S)
      .execute();
    if (row.address) await rememberAddress(this.db, user.sub, row.address, t);
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

  /**
   * Notes that the session was used now: written at most once a minute per session, and a call within a minute of
   * this process's last write for it costs no statement at all (every process keeps its own, so the row is at most
   * a minute or two behind the last call on any of them).
   */
  async touch(sid: string): Promise<void> {
    const t = now();
    if (t - (this.touched.get(sid) ?? -Infinity) < TOUCH_EVERY_S) return;
    if (this.touched.size >= TOUCHED_MAX) {
      for (const [id, at] of this.touched) if (t - at >= TOUCH_EVERY_S) this.touched.delete(id);
      // Still full of sessions used this minute: forgetting them costs each one more write, never a wrong answer.
      if (this.touched.size >= TOUCHED_MAX) this.touched.clear();
    }
    this.touched.set(sid, t);
    await this.db
      .updateTable('sessions')
      .set({ last_used_at: t })
      .where('id', '=', sid)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', t - TOUCH_EVERY_S)]))
      .execute();
  }

  /** The user's current sessions, last used first, the caller's own marked. */
  async list(user: string, mine: string): Promise<SessionView[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .select(['id', 'created_at', 'last_used_at', 'address', 'user_agent'])
      .where('user_stamp', '=', user)
      .where('ended_at', 'is', null)
      .where('expires_at', '>=', now())
      .orderBy('last_used_at', 'desc')
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      createdAt: Number(r.created_at),
      lastUsedAt: Number(r.last_used_at ?? r.created_at),
      address: r.address,
      userAgent: r.user_agent,
      current: r.id === mine,
    }));
  }

  /** Ends one of the user's sessions (never another user's) or, with `keep`, all of them but that one; answers how many. */
  async endOf(user: string, which: { id: string } | { keep: string }): Promise<number> {
    let q = this.db.updateTable('sessions').set({ ended_at: now() }).where('user_stamp', '=', user).where('ended_at', 'is', null);
    q = 'id' in which ? q.where('id', '=', which.id) : q.where('id', '!=', which.keep);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async end(sid: string): Promise<void> {
    await this.db.updateTable('sessions').set({ ended_at: now() }).where('id', '=', sid).where('ended_at', 'is', null).execute();
  }

  /** Ends every session of a user (a password reset), inside the caller's transaction. */
  static async endAll(trx: Transaction<DB> | Kysely<DB>, user: string): Promise<void> {
    await trx.updateTable('sessions').set({ ended_at: now() }).where('user_stamp', '=', user).where('ended_at', 'is', null).execute();
  }
}
