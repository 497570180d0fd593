// Entry of the processing thread (bundled as dist/processing-thread.js): runs one processing call off the main thread.
import { parentPort } from 'node:worker_threads';
import * as processing from '../processing/index';

export type ProcessingCall =
  | { fn: 'analyzeFile'; args: Parameters<typeof processing.analyzeFile> }
  | { fn: 'fitModel'; args: Parameters<typeof processing.fitModel> }
  | { fn: 'generateEmbeddings'; args: Parameters<typeof processing.generateEmbeddings> }
  | { fn: 'shrinkReport'; args: Parameters<typeof processing.shrinkReport> };

export type ProcessingReply = { ok: true; value: unknown } | { ok: false; message: string };

parentPort?.once('message', async (call: ProcessingCall) => {
  let reply: ProcessingReply;
  try {
    const fn = processing[call.fn] as (...a: unknown[]) => Promise<unknown>;
    reply = { ok: true, value: await fn(...call.args) };
  } catch (err) {
    reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
