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

process.once('message', async (call: ProcessingCall) => {
  let reply: ProcessingReply;
  try {
    const fn = processing[call.fn] as (...a: unknown[]) => Promise<unknown>;
    reply = { ok: true, value: await fn(...call.args) };
  } catch (err) {
    reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  process.send!(reply, () => process.exit(0));
});
