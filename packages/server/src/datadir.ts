// DATA_DIR holds password hashes, keys, uploaded files and mail: only the server's own user may read or change it.
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The data folder cannot be made private: the server refuses to start, saying why. */
export class DataDirError extends Error {}

/**
 * Files made from now on are private (0600/0700): set once, before the embedded database or anything else writes
 * into DATA_DIR. Worker threads share their process's umask and may not set it (Node refuses): the main
 * thread has set it already.
 */
export function privateUmask(): void {
  try {
    process.umask(0o077);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_UNSUPPORTED_OPERATION') throw err;
  }
}

/**
 * Creates DATA_DIR 0700 if missing, and makes every folder in it 0700 and every file 0600 (symbolic links are left
 * alone: they are not followed). Throws a DataDirError naming the folder or file and the reason when it cannot.
 */
export function makePrivate(dir: string): void {
  privateUmask();
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new DataDirError(`Cannot create DATA_DIR ${dir}: ${(err as Error).message}`);
  }
  const st = statSync(dir);
  if (!st.isDirectory()) throw new DataDirError(`DATA_DIR ${dir} is not a folder.`);
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && st.uid !== uid) {
    throw new DataDirError(
      `DATA_DIR ${dir} belongs to user ${st.uid}, but the server runs as user ${uid}, so it cannot make the folder private ` +
        "(it holds password hashes, keys and uploaded files). Run the server as the folder's owner, or set DATA_DIR to a folder of its own.",
    );
  }
  fix(dir, 0o700, st.mode);
  walk(dir);
  // Some file systems (FAT, SMB and some container mounts) accept chmod and keep nothing.
  if (statSync(dir).mode & 0o077) {
    throw new DataDirError(
      `DATA_DIR ${dir} stays readable by other users after chmod 700: its file system does not keep permissions. Set DATA_DIR to a folder on a local Linux file system.`,
    );
  }
}

function walk(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let st;
    try {
      st = lstatSync(path);
    } catch (err) {
      // Removed between listing and reading (the database drops temporary files): nothing to fix.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      fix(path, 0o700, st.mode);
      walk(path);
    } else fix(path, 0o600, st.mode);
  }
}

function fix(path: string, mode: number, current: number): void {
  if ((current & 0o777) === mode) return;
  try {
    chmodSync(path, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new DataDirError(
      `Cannot make ${path} private (chmod ${mode.toString(8)}): ${code === 'EPERM' ? 'it belongs to another user' : (err as Error).message}. Give the server's user ownership of everything in DATA_DIR.`,
    );
  }
}
