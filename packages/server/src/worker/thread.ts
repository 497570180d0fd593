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
/** Sent while the call runs (already throttled by processing): how far it got, for the run's event log. */
export type ProcessingNote = { event: processing.ProcessingEvent };

// A worker that dies (kill -9) takes its processing with it: nothing is left computing for nobody.
process.once('disconnect', () => process.exit(1));

process.once('message', async (call: ProcessingCall) => {
  let reply: ProcessingReply;
  try {
    const fn = processing[call.fn] as (...a: unknown[]) => Promise<unknown>;
    // Calls that report progress get a reporter that posts each (throttled) event to the worker.
    const report: processing.Reporter = (event) => process.send!({ event } satisfies ProcessingNote);
    const args: unknown[] =
      call.fn === 'fitModel'
        ? [call.args[0], call.args[1], { ...call.args[2], report }]
        : call.fn === 'generateEmbeddings'
          ? [call.args[0], call.args[1], call.args[2], { ...call.args[3], report }]
          : call.args;
    reply = { ok: true, value: await fn(...args) };
  } catch (err) {
    reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  // No exit here: the parent reads this process's peak memory, then ends it (or it ends when the parent goes).
  // Node lets the IPC channel go once no 'message' listener is left; holding it keeps the process until then.
  process.channel?.ref();
  process.send!(reply);
});
