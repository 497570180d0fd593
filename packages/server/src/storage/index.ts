// Where uploaded files and results live: local files in DATA_DIR/files, or an S3-compatible bucket (STORAGE_URL).
import type { Secrets } from '../auth/secrets';
import { LocalStorage } from './local';
import { openS3Storage } from './s3';

export interface UploadTarget {
  stamp: string;
  size: number;
  checksum: string;
}

export interface Storage {
  kind: 'local' | 's3';
  /**
   * Prepares the store (folders, bucket) and clears half-written files left by a crash: all of them when this
   * process is the only one (embedded database), else only those older than an upload link's lifetime.
   */
  init(opts?: { exclusive?: boolean }): Promise<void>;
  /** A URL the client PUTs the bytes to: bound to the item, its size and an expiry. */
  uploadUrl(target: UploadTarget, key: string, base: string): Promise<{ url: string; expiresAt: number }>;
  /** The stored object's size, or null when nothing is stored under the key. */
  stat(key: string): Promise<{ size: number } | null>;
  /** A local path holding the object; `done` removes any temporary copy. */
  localCopy(key: string): Promise<{ path: string; done: () => Promise<void> }>;
  /** Stores a local file under the key (moved or copied, never half-visible). */
  putFile(key: string, path: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** A time-limited URL that downloads the object as `fileName`. */
  downloadUrl(key: string, fileName: string, base: string): Promise<string>;
}

export const UPLOAD_URL_TTL_S = 60 * 60;
export const DOWNLOAD_URL_TTL_S = 60 * 60;

export async function openStorage(opts: { dataDir: string; storageUrl?: string; secrets: Secrets }): Promise<Storage> {
  if (opts.storageUrl) return openS3Storage(opts.storageUrl);
  return new LocalStorage(opts.dataDir, opts.secrets);
}
