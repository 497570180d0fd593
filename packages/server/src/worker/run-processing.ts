// Runs processing calls in a worker thread when the server is built, so a long fit never stalls the API's event
// loop; from source (tests) there is no built thread file and the call runs inline.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker as Thread } from 'node:worker_threads';
import * as processing from '../processing/index';
import type { ProcessingCall, ProcessingReply } from './thread';

const threadFile = fileURLToPath(new URL('./processing-thread.js', import.meta.url));
const threaded = existsSync(threadFile);

type Fn = ProcessingCall['fn'];
type Args<F extends Fn> = Extract<ProcessingCall, { fn: F }>['args'];
type Result<F extends Fn> = Awaited<ReturnType<(typeof processing)[F]>>;

export function runProcessing<F extends Fn>(fn: F, ...args: Args<F>): Promise<Result<F>> {
  if (!threaded) return (processing[fn] as (...a: unknown[]) => Promise<Result<F>>)(...args);
  return new Promise((resolve, reject) => {
    const thread = new Thread(threadFile);
    let settled = false;
    thread.once('message', (reply: ProcessingReply) => {
      settled = true;
      void thread.terminate();
      if (reply.ok) resolve(reply.value as Result<F>);
      else reject(new Error(reply.message));
    });
    thread.once('error', (err) => {
      settled = true;
      reject(err);
    });
    thread.once('exit', (code) => {
      if (!settled) reject(new Error(`Processing stopped unexpectedly (exit code ${code}).`));
    });
    thread.postMessage({ fn, args } as ProcessingCall);
  });
}
