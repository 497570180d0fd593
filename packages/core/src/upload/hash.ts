// Streaming SHA-256 of an upload source in any runtime (the Node one in @portal/core/node reads files with node:crypto).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { abortReason } from '../timers';
import type { UploadSource } from './types';

// Web Crypto has no incremental digest: below this size the whole file is read once and digested
// natively (fast); above it an incremental hash keeps memory flat.
const WEB_CRYPTO_MAX_BYTES = 32 * 1024 * 1024;

/** Hex SHA-256 of a source's bytes, read as a stream. */
export async function sha256Stream(source: UploadSource, signal?: AbortSignal): Promise<string> {
  if (source.sha256) return source.sha256(signal);
  const subtle = globalThis.crypto?.subtle;
  if (subtle && source.size <= WEB_CRYPTO_MAX_BYTES) {
    const buf = new Uint8Array(source.size);
    let at = 0;
    for await (const chunk of readChunks(source.stream(), signal)) {
      if (at + chunk.length > buf.length) return incremental(source, signal); // size lied: fall back
      buf.set(chunk, at);
      at += chunk.length;
    }
    return bytesToHex(new Uint8Array(await subtle.digest('SHA-256', buf.subarray(0, at))));
  }
  return incremental(source, signal);
}

async function incremental(source: UploadSource, signal?: AbortSignal): Promise<string> {
  const h = sha256.create();
  for await (const chunk of readChunks(source.stream(), signal)) h.update(chunk);
  return bytesToHex(h.digest());
}

/** Iterates a web stream's chunks, cancelling it when the signal aborts. */
export async function* readChunks(stream: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
