// What a store is (the interface the local files and the S3 bucket both implement), what it answers, and its time limits.

export interface UploadTarget {
  stamp: string;
  size: number;
  checksum: string;
}

/** What taking an item's uploaded bytes found: stored and verified, nothing arrived, or bytes that fail the item. */
export type SealOutcome = { ok: true } | { missing: true } | { error: string };

export interface StorageLog {
  info(msg: string): void;
  error(msg: string): void;
}

export interface Storage {
  kind: 'local' | 's3';
  /** Seconds a signed upload URL stays valid. */
  readonly uploadTtlS: number;
  /** Seconds objects of failed and removed uploads, and leftover scratch files, are kept before the sweep deletes them. */
  readonly sweepGraceS: number;
  /**
   * Prepares the store (folders; bucket and its CORS rule) and clears half-written files left by a crash: all of them
   * when this process is the only one (embedded database), else only those older than an upload link's lifetime.
   * An unreachable bucket does not stop the start: it is logged once and readiness fails until it answers.
   */
  init(opts?: { exclusive?: boolean }): Promise<void>;
  /** A URL the client PUTs the bytes to: good for one upload of the item's registered size and SHA-256, until `expiresAt`. */
  uploadUrl(target: UploadTarget, key: string, base: string): Promise<{ url: string; expiresAt: number }>;
  /**
   * Makes the bytes sent to the item's upload URL its stored object under `key`, once, checking the registered
   * length and SHA-256 of what is stored; after this nothing the upload URL can do changes the object.
   */
  seal(key: string, expected: UploadTarget, signal?: AbortSignal): Promise<SealOutcome>;
  /** The stored object's size, or null when nothing is stored under the key. */
  stat(key: string): Promise<{ size: number } | null>;
  /** A local path holding the object; `done` removes any temporary copy. */
  localCopy(key: string): Promise<{ path: string; done: () => Promise<void> }>;
  /** Stores a local file under the key (moved or copied, never half-visible). */
  putFile(key: string, path: string): Promise<void>;
  /** Deletes the object (and any upload bytes not yet sealed under it); nothing stored is fine. */
  remove(key: string): Promise<void>;
  /** A time-limited URL that downloads the object as `fileName`. */
  downloadUrl(key: string, fileName: string, base: string): Promise<string>;
  /** Null when the store answers, else a sentence saying what is wrong (readiness); a change is logged once. */
  check(): Promise<string | null>;
  /** Deletes scratch left before `cutoffS` (epoch seconds): unsealed upload bytes, temporary files. Returns how many. */
  sweepScratch(cutoffS: number): Promise<number>;
}

/** Upload URLs live 15 minutes (UPLOAD_URL_TTL_S may shorten it). */
export const UPLOAD_URL_TTL_S = 15 * 60;
export const DOWNLOAD_URL_TTL_S = 60 * 60;
export const SWEEP_GRACE_S = 24 * 60 * 60;
