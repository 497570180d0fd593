// Rate-limit counters in the database (a store for @fastify/rate-limit), so every API process counts the same attempts.
import { sql, type Kysely } from 'kysely';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { DB } from './db/schema';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;
/** What the plugin passes to `child` at run time: the route's merged limit options with its route. */
interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

/** A store class bound to a database, in the shape @fastify/rate-limit constructs and calls. */
export function databaseRateStore(db: Kysely<DB>): FastifyRateLimitStoreCtor {
  return class DatabaseRateStore {
    constructor(
      _options?: unknown,
      private readonly scope = '',
    ) {}

    incr(key: string, cb: Callback, timeWindow: number, _max?: number): void {
      const now = Date.now();
      const id = `${this.scope}|${key}`;
      bumpCounter(db, id, timeWindow, now).then(
        (row) => {
          cb(null, { current: Number(row.count), ttl: Math.max(0, Number(row.window_start) + timeWindow - now) });
        },
        (err: Error) => cb(err),
      );
    }

    child(options: unknown) {
      const params = options as RouteParams;
      const method = [params.routeInfo?.method ?? ''].flat().join(',');
      return new DatabaseRateStore(undefined, `${method} ${params.routeInfo?.url ?? ''}`);
    }
  };
}

/** Counts one more under `key`: one statement, in which a window that ran out starts again at 1. */
export async function bumpCounter(
  db: Kysely<DB>,
  key: string,
  timeWindow: number,
  now = Date.now(),
): Promise<{ count: number; window_start: number }> {
  const r = await sql<{ count: number; window_start: number }>`
    insert into rate_limits (key, window_start, count) values (${key}, ${now}, 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start + ${timeWindow} <= ${now} then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start + ${timeWindow} <= ${now} then ${now} else rate_limits.window_start end
    returning count, window_start`.execute(db);
  return r.rows[0];
}

/** Drops counters whose window ended long ago. */
export async function pruneRateLimits(db: Kysely<DB>, olderThanMs = 24 * 60 * 60 * 1000): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', Date.now() - olderThanMs)
    .execute();
}
