// What the uploads verbs share: the list's columns, finding one upload of a project, the files named on a line.
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { formatSize, uploadError, type Upload } from '@portal/core';
import { expandPath } from '../../paths';
import type { Session } from '../context';
import { time } from '../common';
import { CliError } from '../errors';

const uploadSize = (r: Upload) => r.upload.list.reduce((n, u) => n + u.file.size, 0);

export const uploadColumns = [
  { header: 'Name', get: (r: Upload) => r.name },
  { header: 'ID', get: (r: Upload) => r.stamp },
  { header: 'Status', get: (r: Upload) => r.flight },
  { header: 'Files', get: (r: Upload) => r.upload.list.length },
  { header: 'Size', get: (r: Upload) => formatSize(uploadSize(r)) },
  { header: 'Requests', get: (r: Upload) => r.runs },
  { header: 'Created', get: (r: Upload) => time(r.createdAt) },
  { header: 'Error', get: (r: Upload) => uploadError(r) },
];

export async function findUpload(s: Session, project: string, id: string): Promise<Upload | undefined> {
  const api = await s.api();
  const { rend: uploads } = await api.calls.rendList({ active: 1, bucket: project });
  return uploads.list.find((r) => r.stamp === id);
}

/** The files named on the command line: stat only, so checks and hashing can start before core's client loads. */
export function localFiles(s: Session, files: string[]): { path: string; name: string; size: number }[] {
  return files.map((f) => {
    // `~` is expanded here too: a quoted "~/data.json" reaches the program as it was typed.
    const path = expandPath(f, s.deps.cwd, s.deps.env.HOME || undefined);
    let st;
    try {
      st = statSync(path);
    } catch {
      throw new CliError(`Cannot read ${f}: no such file`);
    }
    if (!st.isFile()) throw new CliError(`Cannot upload ${f}: not a file`);
    return { path, name: basename(path), size: st.size };
  });
}
