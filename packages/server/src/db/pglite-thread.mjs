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

let lite;
try {
  lite = await PGlite.create(workerData.dir, { parsers: { 20: (v) => Number(v) } });
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
    const r = await lite.query(sql, params);
    parentPort.postMessage({ id, rows: r.rows, affectedRows: r.affectedRows });
  } catch (err) {
    parentPort.postMessage({ id, error: plain(err) });
  }
});
