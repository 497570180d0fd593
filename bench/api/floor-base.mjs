// What both floors share: pg with the portal's bigint parsing, a pool on DATABASE_URL, the portal's session token
// check (the same key it derives from JWT_SECRET, auth/secrets.ts) and error answer, and an app whose answers carry
// the headers the portal's carry.
import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'packages/server/package.json'));
const pg = require('pg');
const { createVerifier } = require('fast-jwt');

pg.types.setTypeParser(20, (v) => Number(v));
const verifyToken = createVerifier({
  key: createHash('sha256').update(`portal-jwt:${process.env.JWT_SECRET}`).digest(),
  algorithms: ['HS256'],
});
export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

export const fail = (reply, status, message) => reply.code(status).send({ error: { code: String(status), message } });

/** The session token's claims, or undefined once a 401 answer is sent. */
export async function claimsOf(req, reply) {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!m) return void fail(reply, 401, 'Token missing');
  try {
    const payload = verifyToken(m[1]);
    if (payload.typ === 'session' && typeof payload.sid === 'string') return payload;
    return void fail(reply, 401, 'Invalid token');
  } catch {
    return void fail(reply, 401, 'Token expired');
  }
}

/**
 * The floor's Fastify app: every answer carries the headers the portal's answers carry beyond HTTP's own (its
 * security headers, read off a portal answer by the benchmark and given in FLOOR_HEADERS) and a request id of its
 * own, so that a floor's answer is the portal's, headers and all, as its JSON is.
 */
export function floorApp() {
  const headers = JSON.parse(process.env.FLOOR_HEADERS ?? '{}');
  const app = Fastify({ genReqId: () => randomUUID() });
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', req.id);
    done();
  });
  return app;
}
