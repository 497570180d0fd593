// The floor: a bare Fastify + pg server doing by hand what the portal's project list does (the same token check,
// session row, membership and client, the active projects oldest first, the same JSON), in its own process.
// FLOOR_MODE=three: three statements (session, membership + client, projects); FLOOR_MODE=one: one statement.
import { claimsOf, fail, floorApp, pool } from './floor-base.mjs';

const one = process.env.FLOOR_MODE === 'one';

const SESSION = `select 1 from sessions where id = $1 and user_stamp = $2 and ended_at is null and expires_at >= $3`;
const CLIENT = `select c.stamp, c.name, c.plan, c.choice, c.active,
  (select p.role from permissions p where p.client_stamp = c.stamp and p.user_stamp = $2) as role
  from clients c where c.stamp = $1`;
const PROJECTS = `select stamp, name, run_count, rend_count, created_at from buckets
  where client = $1 and active = 1 order by created_at, seq`;
const ALL = `with s as (select 1 from sessions where id = $1 and user_stamp = $2 and ended_at is null and expires_at >= $4),
  c as (select c.stamp, c.name, c.plan, c.choice, c.active,
    (select p.role from permissions p where p.client_stamp = c.stamp and p.user_stamp = $2) as role
    from clients c where c.stamp = $3)
  select (select count(*) from s) as live, c.stamp as c_stamp, c.name as c_name, c.plan, c.choice, c.active as c_active, c.role,
    b.stamp, b.name, b.run_count, b.rend_count, b.created_at
  from c left join lateral (select * from buckets b where b.client = c.stamp and b.active = 1 and c.role is not null
    and exists (select 1 from s) order by b.created_at, b.seq) b on true`;

const clientOf = (r) => ({ stamp: r.stamp, name: r.name, plan: r.plan, choice: r.choice, active: r.active ? 1 : 0 });
const bucketOf = (r) => ({ stamp: r.stamp, name: r.name, runs: r.run_count, rends: r.rend_count, createdAt: r.created_at });

const app = floorApp();
app.get('/api/bucket/item', async (req, reply) => {
  const claims = await claimsOf(req, reply);
  if (!claims) return reply;
  const client = String(req.query.client ?? '');
  const t = Math.floor(Date.now() / 1000);
  if (one) {
    const { rows } = await pool.query({ name: 'all', text: ALL, values: [claims.sid, claims.sub, client, t] });
    if (!rows.length) return fail(reply, 404, 'Client not found');
    if (!Number(rows[0].live)) return fail(reply, 401, 'Token expired');
    if (rows[0].role == null) return fail(reply, 403, 'Forbidden');
    const c = rows[0];
    return {
      client: { list: [{ stamp: c.c_stamp, name: c.c_name, plan: c.plan, choice: c.choice, active: c.c_active ? 1 : 0 }] },
      bucket: { list: c.stamp == null ? [] : rows.map(bucketOf) },
    };
  }
  const s = await pool.query({ name: 'session', text: SESSION, values: [claims.sid, claims.sub, t] });
  if (!s.rows.length) return fail(reply, 401, 'Token expired');
  const c = await pool.query({ name: 'client', text: CLIENT, values: [client, claims.sub] });
  if (!c.rows.length) return fail(reply, 404, 'Client not found');
  if (c.rows[0].role == null) return fail(reply, 403, 'Forbidden');
  const b = await pool.query({ name: 'projects', text: PROJECTS, values: [client] });
  return { client: { list: [clientOf(c.rows[0])] }, bucket: { list: b.rows.map(bucketOf) } };
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}`);
