// Scratch folders: entries older than a cutoff were left by a crash or an abandoned transfer, and nobody reads them.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Removes the entries of `dir` last changed before `cutoffS` (epoch seconds); returns how many. */
export async function sweepFolder(dir: string, cutoffS: number): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  for (const name of names) {
    const p = join(dir, name);
    const info = await stat(p).catch((err: NodeJS.ErrnoException) => {
      // Removed meanwhile by whoever owned it: nothing left to sweep.
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!info || info.mtimeMs >= cutoffS * 1000) continue;
    await rm(p, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
