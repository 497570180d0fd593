// What the upload pipeline reads and reports.

/** A file to upload: a browser `File` fits; Node gets one from `fileSource(path)` in @portal/core/node. */
export interface UploadSource {
  name: string;
  size: number;
  stream(): ReadableStream<Uint8Array>;
  /** A faster, runtime-specific hash of the same bytes (Node's fileSource has one). */
  sha256?(signal?: AbortSignal): Promise<string>;
}

/** Bytes sent so far of one file. */
export interface UploadProgress {
  file: string;
  index: number;
  loaded: number;
  total: number;
}

/** Sends a file's bytes to its pre-signed URL, reporting bytes sent. */
export type PutFn = (
  url: string,
  source: UploadSource,
  opts: { onProgress: (loaded: number) => void; signal?: AbortSignal },
) => Promise<void>;
