// The embedded database's own thread: PGlite runs here, so its queries never hold up the HTTP thread. Plain
// JavaScript, so the same file runs from source (tests) and, bundled as dist/pglite-thread.js, from the build.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
// pg's own writer of protocol messages and its conversion of a JavaScript value to a parameter's text.
import { serialize } from 'pg-protocol';
import utils from 'pg/lib/utils.js';

/** An error as plain data: message and PostgreSQL's fields (code, detail, constraint...) survive the trip. */
function plain(err) {
  const out = { message: err instanceof Error ? err.message : String(err) };
  if (err && typeof err === 'object')
    for (const [k, v] of Object.entries(err)) if (typeof v !== 'object' && typeof v !== 'function') out[k] = v;
  return out;
}

/**
 * Rows go back as arrays with their column names once: copying them to the HTTP thread (structured clone) and making
 * them here costs less than objects with every name on every row; embedded-thread.ts makes the objects.
 */
const ARRAYS = { rowMode: 'array' };

/** The statements this session holds, by name (db/statements.ts names them; the session holds them until it ends). */
const parsed = new Set();

/**
 * The server's answer to a protocol message, as its bytes. The streaming call, because PGlite's plain raw call
 * still reads every message with its own reader; each chunk is a view of PGlite's memory, so it is copied.
 */
async function rawAnswer(message) {
  const chunks = [];
  let size = 0;
  await lite.execProtocolRawStream(message, {
    onRawData: (chunk) => {
      chunks.push(chunk.slice());
      size += chunk.length;
    },
  });
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

/** The SQLSTATE of the first error in a raw answer (its ErrorResponse's C field), or null when there is none. */
const decoder = new TextDecoder();
function errorCode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i + 5 <= bytes.length; i += 1 + view.getUint32(i + 1)) {
    if (bytes[i] !== 0x45) continue; // 'E'
    const end = i + 1 + view.getUint32(i + 1);
    for (let j = i + 5; j < end && bytes[j] !== 0;) {
      const field = bytes[j++];
      const stop = bytes.indexOf(0, j);
      if (field === 0x43) return decoder.decode(bytes.subarray(j, stop)); // 'C'
      j = stop + 1;
    }
    return '';
  }
  return null;
}

/**
 * A statement named by the HTTP thread (db/statements.ts) is parsed once in this session, and then only bound to its
 * values and executed: PGlite's own query parses and plans its text on every call, and planning a list statement
 * takes longer than running it. The values go in as bound parameters (a Bind message, written by pg's own
 * serializer, each value turned to text by pg's prepareValue), never into the text. The answer comes back as the
 * server's bytes, which the HTTP thread reads (embedded-thread.ts, with pg's parser): PGlite's own reader copied
 * every value into a buffer of its own, and that was most of this thread's time on a list of 100 rows. A statement
 * without a name is PGlite's parameterised query.
 */
async function query(sql, params, name) {
  if (!name) return lite.query(sql, params, ARRAYS);
  const values = params.map((v) => utils.prepareValue(v));
  const run = async () => {
    if (!parsed.has(name)) {
      const answer = await rawAnswer(join(serialize.parse({ name, text: sql }), serialize.sync()));
      if (errorCode(answer) !== null) return answer;
      parsed.add(name);
    }
    return rawAnswer(
      join(serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()),
    );
  };
  const raw = await run();
  // A statement the session no longer holds (26000) is parsed again, once.
  if (errorCode(raw) !== '26000') return { raw };
  parsed.delete(name);
  return { raw: await run() };
}

/** Protocol messages as one message to send. */
const join = (...messages) => new Uint8Array(Buffer.concat(messages));

/** One operation at a time on the session: the raw protocol must never land between the messages of a query. */
let turn = Promise.resolve();
function serially(work) {
  const done = turn.then(work);
  turn = done.catch(() => {});
  return done;
}

/**
 * PostgreSQL's settings for the embedded database: its shared buffers live in this process's memory and only grow
 * as pages are first touched, so they are sized to what one process needs (PORTAL_EMBEDDED_SHARED_BUFFERS_MB).
 */
function startParams() {
  const mb = Number(process.env.PORTAL_EMBEDDED_SHARED_BUFFERS_MB || EMBEDDED_SHARED_BUFFERS_MB);
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${Math.max(1, Math.floor(mb))}MB`];
}
const EMBEDDED_SHARED_BUFFERS_MB = 32;

let lite;
try {
  lite = await PGlite.create(workerData.dir, { parsers: { 20: (v) => Number(v) }, startParams: startParams() });
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ ready: false, error: plain(err) });
}

parentPort.on('message', async ({ id, op, sql, params, name }) => {
  try {
    if (op === 'close') {
      await serially(() => lite.close());
      parentPort.postMessage({ id });
      parentPort.close();
      return;
    }
    if (op === 'dump') {
      // A copy of the data folder (admin backup); the caller holds the session, so no transaction is half done.
      const bytes = new Uint8Array(await (await serially(() => lite.dumpDataDir('none'))).arrayBuffer());
      parentPort.postMessage({ id, bytes }, [bytes.buffer]);
      return;
    }
    if (op === 'exec') {
      const results = await serially(() => lite.exec(sql));
      parentPort.postMessage({ id, results: results.map((r) => ({ rows: r.rows, affectedRows: r.affectedRows })) });
      return;
    }
    const r = await serially(() => query(sql, params ?? [], name));
    if (r.raw) parentPort.postMessage({ id, raw: r.raw }, [r.raw.buffer]);
    else parentPort.postMessage({ id, rows: r.rows, names: (r.fields ?? []).map((f) => f.name), affectedRows: r.affectedRows });
  } catch (err) {
    parentPort.postMessage({ id, error: plain(err) });
  }
});
