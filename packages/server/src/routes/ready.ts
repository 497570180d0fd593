// Readiness for load balancers and orchestrators: 200 when every part this process needs answers, else 503 naming it.
// `/api/health` stays the liveness probe (the process runs and its database answers).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { CALLS, ERROR_CODES } from '@portal/core';
import type { Services } from '../services';

const OK = 'ok';
/** How long the database may take to answer a probe. */
const DB_TIMEOUT_MS = 3000;

async function databaseCheck(s: Services): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`The database did not answer within ${DB_TIMEOUT_MS / 1000} seconds.`), DB_TIMEOUT_MS);
  });
  try {
    return await Promise.race([sql`select 1`.execute(s.db).then(() => OK, () => 'The database is not reachable.'), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function readyRoutes(app: FastifyInstance, s: Services) {
  app.get(CALLS.ready.path, async (_req, reply) => {
    const [database, storage] = await Promise.all([databaseCheck(s), s.storage.check()]);
    const checks: Record<string, string> = { database, storage: storage === null ? OK : upperFirst(storage) };
    const failing = Object.entries(checks).filter(([, v]) => v !== OK);
    if (!failing.length) return { ok: true as const, checks };
    const message = `Not ready: ${failing.map(([k, v]) => `${k}: ${v}`).join(' ')}`;
    return reply.code(503).send({ ok: false, checks, error: { code: ERROR_CODES.internal, message } });
  });
}

const upperFirst = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
