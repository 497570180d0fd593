// Hashing and the direct PUT of a file from disk for Node: node:http(s) fed from two reused buffers, so bytes are sent
// as they are read and memory stays flat whatever the file's size (no web-stream adapters, no undici for the bytes).
import { open } from 'node:fs/promises';
import type { ApiClient, PutFn, UploadSource } from '@portal/core';
import { httpModuleFor } from '@portal/core/node';

// With the next chunk read while the current one is sent, 512 KB chunks keep the socket busy; the two buffers are
// all the memory a file of any size takes.
const CHUNK = 512 * 1024;

/** A file on disk as an upload source that remembers its path (for diskPut). */
export interface DiskSource extends UploadSource {
  path: string;
}

export const isDiskSource = (s: UploadSource): s is DiskSource => typeof (s as DiskSource).path === 'string';

/** The errors a failed PUT rejects with: an answer that is not 2xx, or none (`timedOut` when nothing moved for too long). */
export interface PutFailures {
  http(status: number, message: string | null): Error;
  network(url: string, cause: unknown, timedOut: boolean): Error;
}

/**
 * PUTs disk sources with node:http(s); anything else goes to the fallback (core's default PUT). The API client's time
 * limit applies to silence, not to the whole transfer: a large file on a slow link keeps going while bytes move.
 */
export function diskPut(api: ApiClient, fallback: PutFn, failures: PutFailures): PutFn {
  return async (url, source, { onProgress, signal }) => {
    if (!isDiskSource(source)) return fallback(url, source, { onProgress, signal });
    const target = new URL(api.resolve(url));
    const { request } = await httpModuleFor(target.protocol);
    return new Promise<void>((resolve, reject) => {
      const req = request(target, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(source.size) },
        signal,
      });
      let timedOut = false;
      if (api.timeoutMs > 0)
        req.setTimeout(api.timeoutMs, () => {
          timedOut = true;
          req.destroy(new Error('timed out'));
        });
      req.on('error', (e) => reject(signal?.aborted ? signal.reason : failures.network(target.toString(), e, timedOut)));
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
          reject(failures.http(status, message));
        });
      });
      // Two buffers, each reused once the socket has taken it: the next chunk is read from disk while the current
      // one is sent, and memory stays flat whatever the file's size.
      void (async () => {
        const fh = await open(source.path, 'r');
        let pending: ReturnType<typeof fh.read> | undefined;
        try {
          const bufs = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
          let current = 0;
          let sent = 0;
          pending = fh.read(bufs[current], 0, CHUNK, null);
          for (;;) {
            const { bytesRead } = await pending;
            if (bytesRead === 0) break;
            const chunk = bufs[current].subarray(0, bytesRead);
            current ^= 1;
            pending = fh.read(bufs[current], 0, CHUNK, null);
            await new Promise<void>((ok, fail) => req.write(chunk, (e) => (e ? fail(e) : ok())));
            sent += bytesRead;
            onProgress(sent);
          }
          req.end();
        } finally {
          await pending?.catch(() => {});
          await fh.close();
        }
      })().catch((e) => req.destroy(e));
    });
  };
}
