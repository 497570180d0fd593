// Readiness for load balancers and orchestrators: 200 when every part this process needs answers, else 503 naming it.
// `/api/health` stays the liveness probe (the process runs and its database answers).
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { ERROR_CODES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import type { Services } from '../services';

/** What readiness looks at: the database, the disk, the store, and whether this process is draining. */
export type ReadyServices = Pick<Services, 'db' | 'disk' | 'lifecycle' | 'storage'>;

const OK = 'ok';
/** How long the database may take to answer a probe. */
const DB_TIMEOUT_MS = 3000;

async function databaseCheck(s: ReadyServices): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`The database did not answer within ${DB_TIMEOUT_MS / 1000} seconds.`), DB_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      sql`select 1`.execute(s.db).then(
        () => OK,
        () => 'The database is not reachable.',
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A worker must have been seen this recently for jobs to be taken. */
export const WORKER_SEEN_S = 30;

async function workerCheck(s: ReadyServices): Promise<string> {
  const row = await s.db
    .selectFrom('workers')
    .select((eb) => eb.fn.max('seen_at').as('seen'))
    .executeTakeFirst()
    .catch(() => null);
  if (row === null) return 'The worker heartbeats cannot be read.';
  const seen = row?.seen == null ? null : Number(row.seen);
  if (seen !== null && seen >= Math.floor(Date.now() / 1000) - WORKER_SEEN_S) return OK;
  return `No worker has been seen in the last ${WORKER_SEEN_S} seconds, so uploads and requests wait: start one (portal-server worker) or run the server with PORTAL_WORKER=1.`;
}

export const readyRoutes: FastifyPluginAsync<ReadyServices> = async (app, s) => {
  app.get(CALLS.ready.path, async (_req, reply) => {
    const [database, storage, worker, disk] = await Promise.all([databaseCheck(s), s.storage.check(), workerCheck(s), s.disk.check()]);
    const checks: Record<string, string> = { database, storage: storage === null ? OK : upperFirst(storage), worker };
    // Only when a write found the disk full, until one succeeds again.
    if (disk) checks.disk = disk;
    // A process that is shutting down takes no new traffic, whatever else answers.
    if (s.lifecycle.stopping) checks.process = 'The server is shutting down.';
    const failing = Object.entries(checks).filter(([, v]) => v !== OK);
    if (!failing.length) return { ok: true as const, checks };
    const message = `Not ready: ${failing.map(([k, v]) => `${k}: ${v}`).join(' ')}`;
    return reply.code(503).send({ ok: false, checks, error: { code: ERROR_CODES.notReady, message } });
  });
};

const upperFirst = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
