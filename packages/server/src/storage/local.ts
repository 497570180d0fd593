// Local file store: bytes arrive through the server's signed storage endpoint and are renamed into place when verified.
import { createReadStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { STORAGE_PATH_PREFIX } from '@portal/core';
import type { Secrets } from '../auth/secrets';
import { newId, now } from '../ids';
import {
  DOWNLOAD_URL_TTL_S,
  UPLOAD_URL_TTL_S,
  SWEEP_GRACE_S,
  type SealOutcome,
  type Storage,
  type StorageLog,
  type UploadTarget,
} from './types';
import { consoleLog, StoreStatus } from './status';
import { sweepFolder } from './scratch';
import { sizeMismatch } from './messages';

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly root: string;
  readonly tmp: string;
  readonly uploadTtlS: number;
  readonly sweepGraceS: number;
  private readonly status: StoreStatus;

  constructor(
    dataDir: string,
    private readonly secrets: Secrets,
    opts: { uploadTtlS?: number; sweepGraceS?: number; log?: StorageLog } = {},
  ) {
    this.root = join(dataDir, 'files');
    this.tmp = join(dataDir, 'files-tmp');
    this.uploadTtlS = opts.uploadTtlS ?? UPLOAD_URL_TTL_S;
    this.sweepGraceS = opts.sweepGraceS ?? SWEEP_GRACE_S;
    this.status = new StoreStatus(opts.log ?? consoleLog);
  }

  async init(opts: { exclusive?: boolean } = {}): Promise<void> {
    await mkdir(this.tmp, { recursive: true });
    await mkdir(this.root, { recursive: true });
    // Alone on the folder, anything in the temporary folder was cut off mid-write by a crash: it was never
    // visible, so it goes. Shared with other processes, the sweep takes what is older than its grace period.
    if (opts.exclusive) await this.sweepScratch(Infinity);
  }

  sweepScratch(cutoffS: number): Promise<number> {
    return sweepFolder(this.tmp, cutoffS);
  }

  async check(): Promise<string | null> {
    try {
      await access(this.root, constants.W_OK);
      await access(this.tmp, constants.W_OK);
      return this.status.report(null);
    } catch (err) {
      return this.status.report(`the file folder ${this.root} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  }

  /** The storage endpoint verified length and SHA-256 before it put the bytes in place: here they only need to be there. */
  async seal(key: string, expected: UploadTarget): Promise<SealOutcome> {
    const st = await this.stat(key);
    if (!st) return { missing: true };
    if (st.size !== expected.size) return { error: sizeMismatch(st.size, expected.size) };
    return { ok: true };
  }

  pathOf(key: string): string {
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error('Storage key escapes the store.');
    return p;
  }

  tempPath(): string {
    return join(this.tmp, newId());
  }

  async uploadUrl(target: UploadTarget, _key: string, base: string) {
    const expiresAt = now() + this.uploadTtlS;
    const sig = this.secrets.sign('upload', target.stamp, target.size, target.checksum, expiresAt);
    const url = `${base}${STORAGE_PATH_PREFIX}upload/${encodeURIComponent(target.stamp)}?exp=${expiresAt}&sig=${sig}`;
    return { url, expiresAt };
  }

  verifyUpload(target: UploadTarget, exp: number, sig: string): boolean {
    return this.secrets.verify(sig, 'upload', target.stamp, target.size, target.checksum, exp);
  }

  async stat(key: string) {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch {
      return null;
    }
  }

  async localCopy(key: string) {
    return { path: this.pathOf(key), done: async () => {} };
  }

  async putFile(key: string, path: string) {
    const dest = this.pathOf(key);
    await mkdir(dirname(dest), { recursive: true });
    try {
      await rename(path, dest);
    } catch {
      // Across file systems a rename fails: copy to a temporary name beside the target, then rename.
      const part = `${dest}.${newId()}.part`;
      await copyFile(path, part);
      await rename(part, dest);
      await rm(path, { force: true });
    }
  }

  async remove(key: string) {
    await rm(this.pathOf(key), { force: true });
  }

  async downloadUrl(key: string, fileName: string, base: string) {
    const exp = now() + DOWNLOAD_URL_TTL_S;
    const sig = this.secrets.sign('download', key, fileName, exp);
    const q = new URLSearchParams({ name: fileName, exp: String(exp), sig });
    return `${base}${STORAGE_PATH_PREFIX}file/${key.split('/').map(encodeURIComponent).join('/')}?${q}`;
  }

  verifyDownload(key: string, fileName: string, exp: number, sig: string): boolean {
    return this.secrets.verify(sig, 'download', key, fileName, exp);
  }

  openRead(key: string) {
    return createReadStream(this.pathOf(key));
  }
}
