// Backups against planted files and hostile archives: `admin backup` writes a new file of its own (exclusively, owner
// only, never through a link) and renames it into place; on PostgreSQL both commands refuse before touching DATA_DIR;
// `admin restore` refuses an archive that unpacks past its bounds (size, ratio, the database's size in memory) with a
// sentence, and leaves DATA_DIR empty.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BACKUP_FORMAT, BACKUP_ON_POSTGRES, RESTORE_ON_POSTGRES, restoreBackup } from '../src/backup';
import { TarWriter } from '../src/tar';
import { serverRoot } from './harness';

const main = join(serverRoot, 'dist/main.js');
const built = existsSync(main);
if (!built && process.env.CI) throw new Error(`${main} does not exist: build the server before the tests.`);

const cli = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [main, 'admin', ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });

const work: string[] = [];
const folder = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'portal-backup-hostile-'));
  work.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of work) await rm(dir, { recursive: true, force: true });
});

/** An archive with a portal manifest and the given entries. */
async function archive(dir: string, entries: Array<[string, Buffer]>): Promise<string> {
  const file = join(dir, 'hostile.backup');
  const tar = new TarWriter(file);
  await tar.add(
    'portal-backup.json',
    Buffer.from(JSON.stringify({ format: BACKUP_FORMAT, createdAt: 'x', migrations: [], files: 'included' })),
  );
  for (const [name, bytes] of entries) await tar.add(name, bytes);
  await tar.close();
  return file;
}

describe('admin restore of a hostile archive', () => {
  const limits = { ratio: 10, floorBytes: 1024 * 1024, databaseBytes: 8 * 1024 * 1024 };

  it('refuses an archive that unpacks to more than its ratio allows, writing no more than that, and leaves DATA_DIR empty', async () => {
    const dir = await folder();
    const file = await archive(dir, [['files/uploads/big', Buffer.alloc(32 * 1024 * 1024)]]);
    const dataDir = join(dir, 'data');
    await expect(restoreBackup(file, dataDir, limits)).rejects.toThrow(
      /hostile\.backup unpacks to more than 10 times its size \([\d.]+ MB\), which no portal backup does: it is damaged or not a portal backup\./,
    );
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a database that would unpack in memory past its bound, a compressed one included', async () => {
    const dir = await folder();
    const limitsWide = { ...limits, ratio: 100_000 };
    const plain = await archive(dir, [['db.tar.gz', Buffer.alloc(9 * 1024 * 1024)]]);
    await expect(restoreBackup(plain, join(dir, 'a'), limitsWide)).rejects.toThrow(
      /is larger than 8\.0 MB, more than a restore loads into memory: it is damaged or not a portal backup\./,
    );
    const bomb = join(dir, 'bomb');
    await rm(plain);
    await archive(dir, [['db.tar.gz', gzipSync(Buffer.alloc(64 * 1024 * 1024))]]);
    await expect(restoreBackup(join(dir, 'hostile.backup'), bomb, limitsWide)).rejects.toThrow(
      /is larger than 8\.0 MB, more than a restore loads into memory/,
    );
    expect(readdirSync(bomb)).toEqual([]);
  });
});

describe.skipIf(!built)('admin backup and restore through planted files, and on PostgreSQL', () => {
  it('on PostgreSQL both refuse with a sentence before DATA_DIR is touched (no keys made in it)', async () => {
    const dir = await folder();
    const dataDir = join(dir, 'data');
    const env = { DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', JWT_SECRET: '' };
    const backup = cli(env, 'backup', join(dir, 'x.backup'));
    expect(backup.status).toBe(1);
    expect(backup.stderr.trim()).toBe(BACKUP_ON_POSTGRES);
    const restore = cli(env, 'restore', join(dir, 'x.backup'));
    expect(restore.status).toBe(1);
    expect(restore.stderr.trim()).toBe(RESTORE_ON_POSTGRES);
    expect(existsSync(dataDir)).toBe(false);
    expect(existsSync(join(dir, 'x.backup'))).toBe(false);
  });

  it('writes a new owner-only file, never through a planted .partial or a link at the target', async () => {
    const dir = await folder();
    const dataDir = join(dir, 'data');
    const victim = join(dir, 'victim');
    await writeFile(victim, 'keep me');
    const file = join(dir, 'portal.backup');
    // Planted: the old fixed partial name as a link to another file, and the target itself as a link.
    await symlink(victim, `${file}.partial`);
    await symlink(victim, file);
    const r = cli({ DATA_DIR: dataDir }, 'backup', file);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // No partial file of its own is left beside it; the planted one is untouched.
    expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual(['portal.backup.partial']);
    expect(lstatSync(`${file}.partial`).isSymbolicLink()).toBe(true);
  });
});
