// Where uploaded files and results live: local files in DATA_DIR/files, or an S3-compatible bucket (STORAGE_URL).
import { join } from 'node:path';
import type { Secrets } from '../auth/secrets';
import { LocalStorage } from './local';
import { openS3Storage } from './s3';
import { consoleLog } from './status';
import { SWEEP_GRACE_S, UPLOAD_URL_TTL_S, type Storage, type StorageLog } from './types';

export type { UploadTarget, SealOutcome, StorageLog, Storage } from './types';
export { UPLOAD_URL_TTL_S, DOWNLOAD_URL_TTL_S, SWEEP_GRACE_S } from './types';

export interface StorageOptions {
  dataDir: string;
  storageUrl?: string;
  secrets: Secrets;
  uploadTtlS?: number;
  sweepGraceS?: number;
  /** Origins the browser uploads from: the bucket's CORS rule must let them PUT (API processes only). */
  corsOrigins?: string[];
  log?: StorageLog;
}

export async function openStorage(opts: StorageOptions): Promise<Storage> {
  const settings = {
    uploadTtlS: opts.uploadTtlS ?? UPLOAD_URL_TTL_S,
    sweepGraceS: opts.sweepGraceS ?? SWEEP_GRACE_S,
    log: opts.log ?? consoleLog,
  };
  if (opts.storageUrl)
    return openS3Storage(opts.storageUrl, {
      ...settings,
      scratchDir: join(opts.dataDir, 'files-tmp'),
      corsOrigins: opts.corsOrigins ?? [],
    });
  return new LocalStorage(opts.dataDir, opts.secrets, settings);
}

/** The settings of the store the configuration names (API and worker processes alike). */
export function storageSettings(c: { dataDir: string; storageUrl?: string; uploadUrlTtlS: number; storageGraceS: number }) {
  return { dataDir: c.dataDir, storageUrl: c.storageUrl, uploadTtlS: c.uploadUrlTtlS, sweepGraceS: c.storageGraceS };
}

/** The portal's origins a browser uploads from: PUBLIC_URL's, else the local names of this port. */
export function browserOrigins(c: { publicUrl?: string; host: string; port: number; allowedHosts?: string[] }): string[] {
  if (c.publicUrl) return [new URL(c.publicUrl).origin];
  // The hosts links may be built on when PUBLIC_URL is unset (see the identity rules): the same set may PUT.
  const hosts = new Set(['localhost', '127.0.0.1', ...(c.allowedHosts ?? [])]);
  if (c.host !== '0.0.0.0' && c.host !== '::') hosts.add(c.host.includes(':') ? `[${c.host}]` : c.host);
  return [...hosts].map((h) => `http://${h}${c.port && c.port !== 80 ? `:${c.port}` : ''}`);
}

export { sweepStorage } from './sweep';
