// Backup and restore of an embedded installation: one file (a gzip'd tar) holding a consistent copy of the database,
// the stored files and the keys kept in DATA_DIR; restored only into an empty DATA_DIR.
import { constants, createReadStream, existsSync, openAsBlob, openSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat, statfs } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Kysely } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import type { DB } from './db/schema';
import { migrationStatus } from './db/migrations';
import { ENCRYPTION_KEY_FILE, SIGNING_KEY_FILE } from './config';
import { makePrivate } from './datadir';
import { TarWriter, readTar } from './tar';

export const BACKUP_FORMAT = 'portal-backup/1';
const MANIFEST = 'portal-backup.json';
const DATABASE = 'db.tar.gz';
const FILES = 'files/';
const KEY_FILES = [SIGNING_KEY_FILE, ENCRYPTION_KEY_FILE];

export class BackupError extends Error {}

export const BACKUP_ON_POSTGRES =
  'admin backup copies the embedded database; with DATABASE_URL, back up PostgreSQL with pg_dump as docs/PRODUCTION.md says.';
export const RESTORE_ON_POSTGRES =
  'admin restore fills the embedded database of an empty DATA_DIR; with DATABASE_URL, restore PostgreSQL with pg_restore as docs/PRODUCTION.md says, and unset DATABASE_URL to restore an embedded backup.';

interface Manifest {
  format: string;
  createdAt: string;
  /** The migrations the database had: a server older than the backup refuses it when it starts. */
  migrations: number[];
  /** Whether the stored files are inside (local storage) or in a bucket backed up on its own. */
  files: 'included' | 'bucket';
}

export interface BackupSource {
  db: Kysely<DB>;
  dataDir: string;
  storageUrl?: string;
  /** A consistent copy of the embedded database (taken between transactions); absent for PostgreSQL. */
  snapshot?: () => Promise<Blob>;
}

/** Every regular file under `root`, as paths relative to it (none when it does not exist). */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)));
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * Writes the backup to `file` (beside it first, then renamed, so a backup cut short never looks complete). The
 * database is copied first; the files after it, so every file the copy refers to is there (files are only added
 * while it runs, or removed days after their upload was).
 */
export async function writeBackup(file: string, src: BackupSource): Promise<string> {
  if (!src.snapshot) throw new BackupError(BACKUP_ON_POSTGRES);
  const target = resolve(file);
  if (!existsSync(dirname(target)))
    throw new BackupError(`The folder ${dirname(target)} does not exist: create it or choose another path.`);
  // A new file of its own beside the target, created exclusively (never one planted there, never through a link),
  // readable by its owner only; renamed over the target once complete.
  const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    createdAt: new Date().toISOString(),
    migrations: (await migrationStatus(src.db)).applied.map((m) => m.id),
    files: src.storageUrl ? 'bucket' : 'included',
  };
  const database = Buffer.from(await (await src.snapshot()).arrayBuffer());
  const tar = new TarWriter(partial);
  let files = 0;
  let bytes = 0;
  try {
    await tar.add(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)));
    await tar.add(DATABASE, database);
    for (const name of KEY_FILES) {
      const kept = await readFile(join(src.dataDir, name)).catch(() => null);
      if (kept) await tar.add(name, kept);
    }
    if (!src.storageUrl) {
      const root = join(src.dataDir, 'files');
      for (const rel of await filesUnder(root)) {
        const info = await stat(join(root, rel)).catch(() => null);
        // Gone since the listing (a staged upload moved into place, which the listing also holds).
        if (!info) continue;
        await tar.addFile(FILES + rel.split(sep).join('/'), join(root, rel), info.size);
        files++;
        bytes += info.size;
      }
    }
    await tar.close();
    const written = await open(partial, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      await written.sync();
    } finally {
      await written.close();
    }
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  const what = src.storageUrl
    ? 'the database (the stored files are in the bucket: back it up as docs/PRODUCTION.md says)'
    : `the database (${mb(database.length)}) and ${files} stored file${files === 1 ? '' : 's'} (${mb(bytes)})`;
  return `Backed up ${what} to ${target}. It holds the keys kept in DATA_DIR: keep it as secret as they are.`;
}

/** A name from the archive as a path inside `root`, or an error for one that would leave it. */
function inside(root: string, name: string): string {
  const path = resolve(root, name);
  if (name.includes('\0') || name.includes('\\') || !path.startsWith(root + sep))
    throw new BackupError(`The backup holds a path outside its folder: ${name}`);
  return path;
}

/**
 * What a restore may take: the bytes it writes (the entries, and the database as PGlite unpacks it) at most `ratio`
 * times the archive's size (plus `floorBytes`, for small installations), the database at most `databaseBytes`
 * (PGlite loads it in memory), and never more than the disk holding DATA_DIR has free.
 */
export interface RestoreLimits {
  ratio: number;
  floorBytes: number;
  databaseBytes: number;
}

export const RESTORE_LIMITS: RestoreLimits = { ratio: 100, floorBytes: 256 * 1024 * 1024, databaseBytes: 4 * 1024 * 1024 * 1024 };

/** Bytes free on the disk that holds `dir` (or its nearest existing parent). */
async function freeBytes(dir: string): Promise<number> {
  let at = resolve(dir);
  for (;;) {
    try {
      const s = await statfs(at);
      return s.bavail * s.bsize;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw err;
      at = dirname(at);
    }
  }
}

/** Fills an empty (or not yet made) DATA_DIR from a backup written by writeBackup. */
export async function restoreBackup(file: string, dataDir: string, limits: RestoreLimits = RESTORE_LIMITS): Promise<string> {
  const source = resolve(file);
  if (!existsSync(source)) throw new BackupError(`There is no backup at ${source}.`);
  const leftovers = await readdir(dataDir).catch(() => []);
  if (leftovers.length) {
    throw new BackupError(
      `DATA_DIR ${dataDir} is not empty: restore into an empty folder (or one that does not exist yet), then start the server on it.`,
    );
  }
  const archive = (await stat(source)).size;
  const free = await freeBytes(dataDir);
  if (archive > free)
    throw new BackupError(`${source} (${mb(archive)}) is larger than the ${mb(free)} free on the disk of DATA_DIR: make room first.`);
  const budget = Math.min(archive * limits.ratio + limits.floorBytes, free);
  let expanded = 0;
  const tooLarge = () =>
    new BackupError(
      budget === free
        ? `${source} unpacks to more than the ${mb(free)} free on the disk of DATA_DIR: make room first, then restore again.`
        : `${source} unpacks to more than ${limits.ratio} times its size (${mb(budget)}), which no portal backup does: it is damaged or not a portal backup.`,
    );
  /** Counts bytes written against the budget, refusing before the disk or memory is spent. */
  const spend = (n: number) => {
    expanded += n;
    if (expanded > budget) throw tooLarge();
  };
  makePrivate(dataDir);
  let manifest: Manifest | null = null;
  const databaseFile = join(dataDir, '.restore-db');
  let database = false;
  let files = 0;
  try {
    for await (const entry of readTar(source)) {
      if (!manifest) {
        if (entry.name !== MANIFEST || entry.size > 64 * 1024) throw new BackupError(`${source} is not a portal backup.`);
        const chunks: Buffer[] = [];
        for await (const c of entry.body) chunks.push(c);
        manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest;
        if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${source} is a backup of another format (${manifest.format}).`);
        continue;
      }
      if (entry.size > budget - expanded) throw tooLarge();
      if (entry.name === DATABASE) {
        // To a file, not memory: PGlite reads it from there.
        if (entry.size > limits.databaseBytes) throw tooLargeDatabase(source, limits);
        await writeEntry(databaseFile, entry.body, spend);
        database = true;
      } else if (KEY_FILES.includes(entry.name) || entry.name.startsWith(FILES)) {
        const path = inside(dataDir, entry.name);
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        await writeEntry(path, entry.body, spend);
        if (entry.name.startsWith(FILES)) files++;
      } else throw new BackupError(`The backup holds an unknown entry: ${entry.name}`);
    }
    if (!manifest || !database) throw new BackupError(`${source} is not a complete portal backup (no database in it).`);
    // A compressed copy of the database unpacks in PGlite's memory: its unpacked size is counted first.
    if (await gzipped(databaseFile)) {
      let unpacked = 0;
      for await (const c of createReadStream(databaseFile).pipe(createGunzip())) {
        unpacked += (c as Buffer).length;
        spend((c as Buffer).length);
        if (unpacked > limits.databaseBytes) throw tooLargeDatabase(source, limits);
      }
    }
    const lite = await PGlite.create(join(dataDir, 'db'), { loadDataDir: await openAsBlob(databaseFile) });
    await lite.close();
    await rm(databaseFile, { force: true });
    makePrivate(dataDir);
  } catch (err) {
    // Nothing half-restored stays behind: the folder is empty again, ready for another try.
    for (const name of await readdir(dataDir).catch(() => [])) await rm(join(dataDir, name), { recursive: true, force: true });
    if (err instanceof BackupError) throw err;
    throw new BackupError(`Could not restore ${source}: ${(err as Error).message}`);
  }
  const note = manifest.files === 'bucket' ? ' The stored files were in a bucket: point STORAGE_URL at it (or at its restored copy).' : '';
  return `Restored the backup of ${manifest.createdAt} (the database and ${files} stored file${files === 1 ? '' : 's'}) into ${dataDir}: start the server with DATA_DIR=${dataDir}.${note}`;
}

const tooLargeDatabase = (source: string, limits: RestoreLimits) =>
  new BackupError(
    `The database in ${source} is larger than ${mb(limits.databaseBytes)}, more than a restore loads into memory: it is damaged or not a portal backup.`,
  );

/** Writes an entry's bytes to a new file (exclusively, owner only), each chunk counted by `spend` first. */
async function writeEntry(path: string, body: AsyncIterable<Buffer>, spend: (n: number) => void): Promise<void> {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  const out = createWriteStream('', { fd });
  try {
    for await (const c of body) {
      spend(c.length);
      if (!out.write(c)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
}

async function gzipped(path: string): Promise<boolean> {
  const f = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    await f.read(head, 0, 2, 0);
    return head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await f.close();
  }
}
