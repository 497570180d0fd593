// The direct PUT of file bytes: XHR in browsers (upload progress events), a counted stream through fetch elsewhere.
import { ApiError, type ApiClient } from '../client';
import { ErrorBody } from '../contract';
import { MESSAGES } from '../messages';
import { abortReason } from '../timers';
import type { PutFn, UploadSource } from './types';

export interface XhrPutOptions {
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  contentType?: string;
}

function failure(status: number, text: string): ApiError {
  let serverMessage: string | null = text.slice(0, 500) || null;
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) serverMessage = parsed.data.error.message;
  } catch {}
  return new ApiError(status, status === 0 ? 'network' : `http_${status}`, serverMessage, MESSAGES.uploadFiles);
}

/** PUTs a Blob with XMLHttpRequest, whose upload events give real progress in browsers. */
export function xhrPut(url: string, blob: Blob, opts: XhrPutOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(abortReason(opts.signal));
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => opts.signal?.removeEventListener('abort', onAbort);
    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', opts.contentType ?? 'application/octet-stream');
    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.lengthComputable ? e.total : blob.size);
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(blob.size, blob.size);
        resolve();
      } else reject(failure(xhr.status, String(xhr.responseText ?? '')));
    };
    xhr.onerror = () => {
      done();
      reject(failure(0, ''));
    };
    xhr.onabort = () => {
      done();
      reject(abortReason(opts.signal ?? AbortSignal.abort()));
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(blob);
  });
}

/** A copy of a stream that reports the running byte count as chunks pass through. */
export function countBytes(stream: ReadableStream<Uint8Array>, onProgress: (loaded: number) => void): ReadableStream<Uint8Array> {
  let loaded = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        controller.enqueue(chunk);
        onProgress(loaded);
      },
    }),
  );
}

/** The default PUT for a client: XHR for Blobs where XMLHttpRequest exists, else fetch with a counted stream. */
export function defaultPut(api: ApiClient): PutFn {
  return async (url, source: UploadSource, { onProgress, signal }) => {
    const target = api.resolve(url);
    if (typeof XMLHttpRequest !== 'undefined' && typeof Blob !== 'undefined' && source instanceof Blob) {
      return xhrPut(target, source, { onProgress: (loaded) => onProgress(loaded), signal });
    }
    let sent = 0;
    const counted = countBytes(source.stream(), (loaded) => onProgress((sent = loaded)));
    await api.putBytes(target, counted, { signal, size: source.size });
    if (sent !== source.size) onProgress(source.size);
  };
}
