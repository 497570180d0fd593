// Upload sources and SHA-256 read from disk as streams, so memory stays flat whatever the file size.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { UploadSource } from '../upload';

// Larger reads than the 64 KiB default: fewer calls into the hash, same flat memory.
const CHUNK = 1024 * 1024;

/** Hex SHA-256 of a file, read in chunks (never the whole file at once). */
export function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const stream = createReadStream(path, { highWaterMark: CHUNK, signal });
    stream.on('data', (chunk) => hash.update(chunk));
    stream.on('error', reject);
    stream.on('end', () => resolve(hash.digest('hex')));
  });
}

/** An upload source for a file on disk: its name, its size now, and fresh streams of its bytes. */
export function fileSource(path: string, name = basename(path)): UploadSource {
  const { size } = statSync(path);
  return {
    name,
    size,
    stream: () => Readable.toWeb(createReadStream(path, { highWaterMark: CHUNK })) as ReadableStream<Uint8Array>,
    sha256: (signal) => sha256File(path, signal),
  };
}
