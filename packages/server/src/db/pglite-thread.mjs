// The embedded database's own thread: PGlite runs here, so its queries never hold up the HTTP thread. Plain
// JavaScript, so the same file runs from source (tests) and, bundled as dist/pglite-thread.js, from the build.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** An error as plain data: message and PostgreSQL's fields (code, detail, constraint...) survive the trip. */
function plain(err) {
  const out = { message: err instanceof Error ? err.message : String(err) };
  if (err && typeof err === 'object')
    for (const [k, v] of Object.entries(err)) if (typeof v !== 'object' && typeof v !== 'function') out[k] = v;
  return out;
}

/** A query whose text starts with this comment runs as a prepared statement (db/index.ts marks the hot ones). */
const PREPARED_MARK = /^\/\* prepared:(\w+) \*\//;
/** Statement names by text (one mark covers each shape of its query), as db/index.ts names them for PostgreSQL. */
const prepared = new Map();
const PREPARED_TEXTS_MAX = 200;
let statements = 0;
/**
 * Rows go back as arrays with their column names once: copying them to the HTTP thread (structured clone) and making
 * them here costs less than objects with every name on every row; embedded-thread.ts makes the objects.
 */
const ARRAYS = { rowMode: 'array' };

/**
 * A parameter as an SQL literal for EXECUTE, which takes no bind parameters; null when it has none here (the query
 * then runs unprepared). Strings are quoted with their quotes doubled: standard_conforming_strings is on (checked at
 * start), so a backslash is an ordinary character.
 */
function literal(v) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return v.includes('\0') ? null : `'${v.replaceAll("'", "''")}'`;
  return null;
}

/**
 * PGlite plans every query it is sent (its protocol has no named statements), and planning a list statement takes
 * longer than running it: a marked query is prepared once in this session (PREPARE) and then only executed.
 */
async function query(sql, params) {
  const m = PREPARED_MARK.exec(sql);
  const values = m ? params.map(literal) : [];
  if (!m || values.includes(null) || (!prepared.has(sql) && prepared.size >= PREPARED_TEXTS_MAX)) return lite.query(sql, params, ARRAYS);
  const run = async () => {
    let name = prepared.get(sql);
    if (!name) {
      name = `${m[1]}_${statements++}`;
      await lite.exec(`prepare ${name} as ${sql}`);
      prepared.set(sql, name);
    }
    // The simple protocol: one message, where query's extended protocol takes four (a tenth of a millisecond less).
    const results = await lite.exec(`execute ${name}${values.length ? `(${values.join(', ')})` : ''}`, ARRAYS);
    return results[results.length - 1];
  };
  try {
    return await run();
  } catch (err) {
    // A statement the session no longer holds (26000) is prepared again, once.
    if (err?.code !== '26000') throw err;
    prepared.delete(sql);
    return run();
  }
}

let lite;
try {
  lite = await PGlite.create(workerData.dir, { parsers: { 20: (v) => Number(v) } });
  const { rows } = await lite.query('show standard_conforming_strings');
  if (rows[0]?.standard_conforming_strings !== 'on') throw new Error('The embedded database must have standard_conforming_strings on.');
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ ready: false, error: plain(err) });
}

parentPort.on('message', async ({ id, op, sql, params }) => {
  try {
    if (op === 'close') {
      await lite.close();
      parentPort.postMessage({ id });
      parentPort.close();
      return;
    }
    if (op === 'dump') {
      // A copy of the data folder (admin backup); the caller holds the session, so no transaction is half done.
      const bytes = new Uint8Array(await (await lite.dumpDataDir('none')).arrayBuffer());
      parentPort.postMessage({ id, bytes }, [bytes.buffer]);
      return;
    }
    if (op === 'exec') {
      const results = await lite.exec(sql);
      parentPort.postMessage({ id, results: results.map((r) => ({ rows: r.rows, affectedRows: r.affectedRows })) });
      return;
    }
    const r = await query(sql, params ?? []);
    parentPort.postMessage({ id, rows: r.rows, names: (r.fields ?? []).map((f) => f.name), affectedRows: r.affectedRows });
  } catch (err) {
    parentPort.postMessage({ id, error: plain(err) });
  }
});
