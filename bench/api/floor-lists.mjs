// The lists' floor: a bare Fastify + pg server doing by hand what the portal does for a page of a long list (the same
// token check, session row, membership, project or client, the page by its cursor, the same JSON), one statement a
// page, in its own process. Pages of a client's projects, of a project's uploads (with their files and results) and of
// its requests (with their uploads' names), newest or oldest first as the portal lists them; no search, no filters.
import { claimsOf, fail, floorApp, pool } from './floor-base.mjs';

// $1 session, $2 user, $3 the project or client, $4 now, $5 page size + 1, $6 and $7 the cursor (after the first page).
// The limit sits under a fixed cap so that PostgreSQL keeps the prepared statement's generic plan.
const SESSION = `s as (select exists (select 1 from sessions where id = $1 and user_stamp = $2 and ended_at is null and expires_at >= $4) as live)`;
const PROJECT = `${SESSION}, a as (
  select s.live, b.stamp, b.name, b.created_at, b.run_count, b.rend_count,
    c.stamp as c_stamp, c.name as c_name, c.plan, c.choice, c.active as c_active,
    exists (select 1 from permissions p where p.client_stamp = c.stamp and p.user_stamp = $2) as member
  from s left join buckets b on b.stamp = $3 and b.active = 1 and s.live left join clients c on c.stamp = b.client)`;
// Each list has two texts, the first page's and the others' (after a cursor), so both walk the index from where they start.
const AFTER = '/*after*/';
const page = (alias, select) => `select * from (${select}${AFTER}
    order by ${alias}.created_at desc, ${alias}.seq desc limit 201) ${alias}
  order by ${alias}.created_at desc, ${alias}.seq desc limit $5::bigint`;
const texts = (text, alias, op) => [
  text.replace(AFTER, ''),
  text.replace(AFTER, ` and (${alias}.created_at, ${alias}.seq) ${op} ($6::bigint, $7::bigint)`),
];
const SEEN = '(select a.live and a.member from a)';
const A_ROW = `a.live, a.member, a.stamp, a.name, a.created_at, a.run_count, a.rend_count, a.c_stamp, a.c_name, a.plan, a.choice, a.c_active`;
const A_NULLS = 'null::boolean, null::boolean, null, null, null::bigint, null::bigint, null::bigint, null, null, null, null, null::int';

// A page of uploads: each joined to its files (a row per file, or one without), then their results in rows of their own.
const UPLOADS = texts(
  `with ${PROJECT}, p as (${page('r', `select r.stamp, r.name, r.flight, r.created_at, r.seq, r.run_count from rends r where ${SEEN} and r.bucket = $3 and r.active = 1`)})
select 0 as k, ${A_ROW}, null::bigint as seq, null as flight, null as u_stamp, null as u_name, null::bigint as u_created_at,
  null::bigint as u_seq, null as state, null as checksum, null as file_name, null::bigint as size, null::int as proc,
  null::bigint as cols, null::bigint as rows, null::bigint as inputs, null as meta_error, null as error, null as rend, null as run from a
union all select 1, ${A_NULLS.replace('null, null, null::bigint, null::bigint', 'p.stamp, p.name, p.created_at, p.run_count')}, p.seq, p.flight,
  u.stamp, u.name, u.created_at, u.seq, u.state, u.checksum, u.file_name, u.size, u.proc, u.cols, u.rows, u.inputs, u.meta_error, u.error,
  null, null from p left join uploads u on u.rend = p.stamp
union all select 3, ${A_NULLS.replace('null, null, null::bigint', 'x.stamp, x.name, x.created_at')}, x.seq, null, null, null, null, null,
  null, null, null, x.size, null, null, null, null, null, null, x.rend, x.run from boxes x where x.rend in (select stamp from p)`,
  'r',
  '<',
);

const REQUESTS = texts(
  `with ${PROJECT}
select 0 as k, ${A_ROW}, null::bigint as seq, null as "desc", null as function, null as state, null as message, null as rend,
  null as fit, null as model, null as quote, null::bigint as started_at, null::bigint as finished_at, null as metrics,
  null as note, null as rend_name from a
union all select 1, ${A_NULLS.replace('null, null, null::bigint', 'n.stamp, n.name, n.created_at')}, n.seq, n."desc", n.function, n.state,
  n.message, n.rend, n.fit, n.model, n.quote, n.started_at, n.finished_at, n.metrics, n.note, n.rend_name
from (${page('n', `select n.*, r.name as rend_name from runs n left join rends r on r.stamp = n.rend where ${SEEN} and n.bucket = $3 and n.active = 1`)}) n`,
  'n',
  '<',
);

const PROJECTS = texts(
  `with ${SESSION}, a as (
  select s.live, c.stamp as c_stamp, c.name as c_name, c.plan, c.choice, c.active as c_active,
    exists (select 1 from permissions p where p.client_stamp = c.stamp and p.user_stamp = $2) as member
  from s left join clients c on c.stamp = $3 and s.live)
select 0 as k, a.live, a.member, a.c_stamp, a.c_name, a.plan, a.choice, a.c_active, null as stamp, null as name,
  null::bigint as created_at, null::bigint as seq, null::int as run_count, null::int as rend_count from a
union all select 1, null, null, null, null, null, null, null, b.stamp, b.name, b.created_at, b.seq, b.run_count, b.rend_count
from (select * from (select b.stamp, b.name, b.created_at, b.seq, b.run_count, b.rend_count from buckets b
    where (select a.live and a.member from a) and b.client = $3 and b.active = 1
      ${AFTER}
    order by b.created_at, b.seq limit 201) b
  order by b.created_at, b.seq limit $5::bigint) b`,
  'b',
  '>',
);

const clientOf = (r) => ({ stamp: r.c_stamp, name: r.c_name, plan: r.plan, choice: r.choice, active: r.c_active ? 1 : 0 });
const bucketOf = (r) => ({ stamp: r.stamp, name: r.name, runs: r.run_count, rends: r.rend_count, createdAt: r.created_at });
const byDate = (sign) => (a, b) => sign * (a.created_at - b.created_at || a.seq - b.seq);
const uploadOf = (u) => ({
  stamp: u.stamp,
  name: u.name,
  state: u.state,
  file: { checksum: u.checksum, name: u.file_name, size: u.size },
  meta: { proc: u.proc === 1 || u.proc === 2 ? u.proc : 0, cols: u.cols, rows: u.rows, inputs: u.inputs, error: u.meta_error },
  error: u.error,
  createdAt: u.created_at,
});
const boxOf = (x) => ({ stamp: x.stamp, name: x.name, run: x.run, size: x.size, createdAt: x.created_at });
const runOf = (n) => ({
  stamp: n.stamp,
  name: n.name,
  desc: n.desc,
  function: n.function,
  state: n.state,
  message: n.message,
  createdAt: n.created_at,
  rend: n.rend && n.rend_name !== null ? { stamp: n.rend, name: n.rend_name } : null,
  fit: n.fit,
  model: n.model,
  quote: n.quote,
  startedAt: n.started_at,
  finishedAt: n.finished_at,
  metrics: n.metrics === null ? null : JSON.parse(n.metrics),
  note: n.note,
});

/** The page's rows after the access row is checked, in the list's order, and the next page's cursor. */
async function pageOf(req, reply, name, text, parent, sign) {
  const claims = await claimsOf(req, reply);
  if (!claims) return reply;
  const limit = Number(req.query.limit ?? 50);
  const values = [claims.sid, claims.sub, String(req.query[parent] ?? ''), Math.floor(Date.now() / 1000), limit + 1];
  if (req.query.cursor) values.push(...String(req.query.cursor).split('.').map(Number));
  const after = values.length > 5 ? 1 : 0;
  const { rows } = await pool.query({ name: `${name}${after}`, text: text[after], values });
  const a = rows.find((r) => r.k === 0);
  if (!a.live) return fail(reply, 401, 'Token expired');
  if (a.c_stamp === null) return fail(reply, 404, parent === 'bucket' ? 'Project not found' : 'Client not found');
  if (!a.member) return fail(reply, 403, 'Forbidden');
  // A row of the list comes once per file of an upload (an upload's files are joined to it): each row once.
  const seen = new Set();
  const listed = rows.filter((r) => r.k === 1 && !seen.has(r.stamp) && seen.add(r.stamp)).sort(byDate(sign));
  const kept = listed.slice(0, limit);
  const next = listed.length > limit ? `${kept.at(-1).created_at}.${kept.at(-1).seq}` : null;
  return { a, rows, kept, next };
}

const app = floorApp();
app.get('/api/bucket/item', async (req, reply) => {
  const p = await pageOf(req, reply, 'projects', PROJECTS, 'client', 1);
  if (!p?.a) return p;
  return { client: { list: [clientOf(p.a)] }, bucket: { list: p.kept.map(bucketOf), next: p.next } };
});
app.get('/api/rend/item', async (req, reply) => {
  const p = await pageOf(req, reply, 'uploads', UPLOADS, 'bucket', -1);
  if (!p?.a) return p;
  const files = new Map();
  const boxes = new Map();
  for (const r of p.rows) {
    if (r.k === 1 && r.u_stamp !== null) {
      const file = { ...r, stamp: r.u_stamp, name: r.u_name, created_at: r.u_created_at, seq: r.u_seq };
      files.set(r.stamp, [...(files.get(r.stamp) ?? []), file]);
    } else if (r.k === 3) boxes.set(r.rend, [...(boxes.get(r.rend) ?? []), r]);
  }
  const of = (m, stamp) => (m.get(stamp) ?? []).sort(byDate(1));
  return {
    client: clientOf(p.a),
    bucket: bucketOf(p.a),
    rend: {
      list: p.kept.map((r) => ({
        stamp: r.stamp,
        name: r.name,
        flight: r.flight,
        createdAt: r.created_at,
        runs: r.run_count,
        upload: { list: of(files, r.stamp).map(uploadOf) },
        box: { list: of(boxes, r.stamp).map(boxOf) },
      })),
      next: p.next,
    },
  };
});
app.get('/api/run/item', async (req, reply) => {
  const p = await pageOf(req, reply, 'requests', REQUESTS, 'bucket', -1);
  if (!p?.a) return p;
  return { client: clientOf(p.a), bucket: bucketOf(p.a), run: { list: p.kept.map(runOf), next: p.next } };
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}`);
