// Upload sources and SHA-256 read from disk in fixed-size chunks, so memory stays flat whatever the file size.
import { createReadStream, statSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { abortReason } from '../timers';
import type { UploadSource } from '../upload';

// Large enough that per-call overhead vanishes against the hash, small enough to be irrelevant for memory.
const CHUNK = 2 * 1024 * 1024;

/**
 * Hex SHA-256 of a file, never holding more than two chunks: the next chunk is read (on libuv's
 * thread pool) while the current one is hashed, so disk and hash overlap.
 */
export async function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  if (signal?.aborted) throw abortReason(signal);
  // node:crypto loads here, with the first hash: most commands never hash, and loading it costs every one of them.
  const [{ createHash }, file] = await Promise.all([import('node:crypto'), open(path, 'r')]);
  try {
    const hash = createHash('sha256');
    const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
    let current = 0;
    let pending = file.read(buffers[current], 0, CHUNK, null);
    for (;;) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) break;
      if (signal?.aborted) throw abortReason(signal);
      const chunk = buffers[current];
      current ^= 1;
      pending = file.read(buffers[current], 0, CHUNK, null);
      hash.update(bytesRead === CHUNK ? chunk : chunk.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await file.close();
  }
}

/**
 * An upload source for a file on disk: its name, its size now, fresh streams of its bytes, and its text (for a CSV
 * that is turned into a JSON table before upload).
 */
export function fileSource(path: string, name = basename(path)): UploadSource & { text(): Promise<string> } {
  let stats;
  try {
    stats = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `File not found: ${path}`
        : code === 'EACCES'
          ? `Permission denied: ${path}`
          : `Cannot read ${path}: ${(e as Error).message}`,
    );
  }
  if (!stats.isFile()) throw new Error(`Not a file: ${path}`);
  const { size } = stats;
  return {
    name,
    size,
    stream: () => Readable.toWeb(createReadStream(path, { highWaterMark: 1024 * 1024 })) as ReadableStream<Uint8Array>,
    sha256: (signal) => sha256File(path, signal),
    text: () => readFile(path, 'utf8'),
  };
}
