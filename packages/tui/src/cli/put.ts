// The direct PUT of a file from disk for Node: node:http(s) with the file piped from a read stream, so bytes are
// read once, sent as they are read, and memory stays flat whatever the file's size (no web-stream adapters).
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ApiClient, PutFn, UploadSource } from '@portal/core';

// Small enough that the chunks in flight on the socket stay a few hundred KB, large enough for few syscalls.
const CHUNK = 256 * 1024;

/** Hex SHA-256 of a file, read into one reused buffer: no garbage per chunk, so memory stays flat. */
export async function hashFile(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return hash.digest('hex');
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
}

/** A file on disk as an upload source that remembers its path (for diskPut). */
export interface DiskSource extends UploadSource {
  path: string;
}

export const isDiskSource = (s: UploadSource): s is DiskSource => typeof (s as DiskSource).path === 'string';

/** PUTs disk sources with node:http(s); anything else goes to the fallback (core's default PUT). */
export function diskPut(api: ApiClient, fallback: PutFn, makeError: (status: number, message: string | null) => Error): PutFn {
  return (url, source, { onProgress, signal }) => {
    if (!isDiskSource(source)) return fallback(url, source, { onProgress, signal });
    const target = new URL(api.resolve(url));
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<void>((resolve, reject) => {
      const req = request(target, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(source.size) },
        signal,
      });
      req.on('error', (e) => reject(signal?.aborted ? signal.reason : makeError(0, e.message)));
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body.length < 2000 ? (body += d) : undefined));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve();
          let message: string | null = body.slice(0, 500) || null;
          try {
            message = JSON.parse(body).error.message ?? message;
          } catch {}
          reject(makeError(status, message));
        });
      });
      // One buffer, reused once the socket has taken each chunk: memory stays flat whatever the file's size.
      void (async () => {
        const fh = await open(source.path, 'r');
        try {
          const buf = Buffer.allocUnsafe(CHUNK);
          let sent = 0;
          for (;;) {
            const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
            if (bytesRead === 0) break;
            await new Promise<void>((ok, fail) => req.write(buf.subarray(0, bytesRead), (e) => (e ? fail(e) : ok())));
            sent += bytesRead;
            onProgress(sent);
          }
          req.end();
        } finally {
          await fh.close();
        }
      })().catch((e) => req.destroy(e));
    });
  };
}
