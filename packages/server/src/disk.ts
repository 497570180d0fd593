// A full disk: a write refused for want of space (ENOSPC from a file call, disk_full from the database) is answered
// 507 with a sentence that names storage, logged and counted, and readiness fails until a write succeeds again.
import { rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from './ids';
import { isDiskFull } from './errors';

export type DiskPart = 'storage' | 'database';

export interface DiskLog {
  error(obj: unknown, msg?: string): void;
  info(msg: string): void;
}

/** Bytes a readiness probe writes to see whether the disk has room again. */
const PROBE_BYTES = 1024 * 1024;

export class DiskWatch {
  /** When a write last found the disk full (ms), until a probe write succeeds. */
  fullSince: number | null = null;
  /** Told of each write refused for want of space (the metrics' counter). */
  onFull?: (part: DiskPart) => void;

  constructor(
    readonly dataDir: string,
    private readonly log: DiskLog,
  ) {}

  /** Records a refused write when `err` says the disk is full; true when it did. */
  noteIfFull(err: unknown, part: DiskPart = partOf(err)): boolean {
    if (!isDiskFull(err)) return false;
    this.onFull?.(part);
    if (this.fullSince === null) this.fullSince = Date.now();
    const where = part === 'storage' ? `${this.dataDir}'s disk` : "the database's disk";
    this.log.error({ err, part }, `The disk is full: a write to the ${part} was refused for want of space; free disk space on ${where}`);
    return true;
  }

  /** Free and total bytes of the disk that holds DATA_DIR (null when it cannot be read). */
  async space(): Promise<{ free: number; size: number } | null> {
    try {
      const s = await statfs(this.dataDir);
      return { free: s.bavail * s.bsize, size: s.blocks * s.bsize };
    } catch {
      return null;
    }
  }

  /** Null while writes succeed; after a refused one, a sentence until a probe write of 1 MB in DATA_DIR succeeds. */
  async check(): Promise<string | null> {
    if (this.fullSince === null) return null;
    const probe = join(this.dataDir, `.space-probe-${newId()}`);
    try {
      await writeFile(probe, Buffer.alloc(PROBE_BYTES), { flag: 'wx' });
      this.fullSince = null;
      this.log.info('The disk has room again: writes are taken');
      return null;
    } catch {
      const space = await this.space();
      const free = space ? ` (${(space.free / 1024 / 1024).toFixed(1)} MB free)` : '';
      return `The disk of DATA_DIR ${this.dataDir} is full${free}: writes are refused until disk space is freed.`;
    } finally {
      await rm(probe, { force: true }).catch(() => {});
    }
  }
}

/** A database's error carries a SQLSTATE (five characters); a file call's an errno name. */
function partOf(err: unknown): DiskPart {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? 'database' : 'storage';
}

/** A worker process's watch (it has no readiness of its own): a write refused for want of space is logged and counted. */
export function fullDisk(dataDir: string, log: DiskLog, metrics: { diskFull: { inc(labels: { part: DiskPart }): void } }): DiskWatch {
  const watch = new DiskWatch(dataDir, log);
  watch.onFull = (part) => metrics.diskFull.inc({ part });
  return watch;
}
