// Entry of a processing job's own process (bundled as dist/processing-thread.js): runs one processing call and
// exits. A process of its own, not a thread, because the parent must be able to measure and cap all its memory
// (buffers included, which a worker thread's resourceLimits do not count) and stop it at any instant.
import * as processing from '../processing/index';

export type ProcessingCall =
  | { fn: 'analyzeFile'; args: Parameters<typeof processing.analyzeFile> }
  | { fn: 'fitModel'; args: Parameters<typeof processing.fitModel> }
  | { fn: 'generateEmbeddings'; args: Parameters<typeof processing.generateEmbeddings> }
  | { fn: 'shrinkReport'; args: Parameters<typeof processing.shrinkReport> };

export type ProcessingReply = { ok: true; value: unknown } | { ok: false; message: string };

// A worker that dies (kill -9) takes its processing with it: nothing is left computing for nobody.
process.once('disconnect', () => process.exit(1));

process.once('message', async (call: ProcessingCall) => {
  let reply: ProcessingReply;
  try {
    const fn = processing[call.fn] as (...a: unknown[]) => Promise<unknown>;
    reply = { ok: true, value: await fn(...call.args) };
  } catch (err) {
    reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  // No exit here: the parent reads this process's peak memory, then ends it (or it ends when the parent goes).
  // Node lets the IPC channel go once no 'message' listener is left; holding it keeps the process until then.
  process.channel?.ref();
  process.send!(reply);
});
