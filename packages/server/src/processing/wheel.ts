// Builds the pure-Python client package as a wheel (PEP 427) in memory, byte for byte the same on every build.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { zipSync, type Zippable } from 'fflate';

export const WHEEL_NAME = 'portal_client';
export const WHEEL_VERSION = '0.2.0';
export const WHEEL_FILE = `${WHEEL_NAME}-${WHEEL_VERSION}-py3-none-any.whl`;

/** The sources sit in packages/server/python, reached from src/processing (tests, tsx) or dist (the bundle). */
function sourceDir(): string {
  const candidates = ['../../python/', '../python/', './python/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  const found = candidates.find((dir) => existsSync(`${dir}${WHEEL_NAME}/__init__.py`));
  if (!found) throw new Error('The Python client sources are missing from this server installation.');
  return found;
}

const recordHash = (data: Uint8Array) => `sha256=${createHash('sha256').update(data).digest('base64url')}`;

export async function buildClientWheel(): Promise<{ fileName: string; bytes: Buffer }> {
  const dir = sourceDir();
  // The modules and the py.typed marker (PEP 561), so editors and type checkers read the client's type hints.
  const names = (await readdir(`${dir}${WHEEL_NAME}`)).filter((f) => f.endsWith('.py') || f === 'py.typed').sort();
  const files: Array<[string, Uint8Array]> = [];
  for (const f of names) files.push([`${WHEEL_NAME}/${f}`, await readFile(`${dir}${WHEEL_NAME}/${f}`)]);

  const readme = existsSync(`${dir}README.md`) ? await readFile(`${dir}README.md`, 'utf8') : '';
  const info = `${WHEEL_NAME}-${WHEEL_VERSION}.dist-info`;
  const text = (s: string) => new TextEncoder().encode(s);
  files.push([
    `${info}/METADATA`,
    text(
      [
        'Metadata-Version: 2.1',
        `Name: ${WHEEL_NAME}`,
        `Version: ${WHEEL_VERSION}`,
        'Summary: Python SDK of the portal API: projects, uploads, models, fit and generate requests, events, results, quotes and billing (standard library only).',
        'Requires-Python: >=3.8',
        'Provides-Extra: progress',
        "Requires-Dist: tqdm; extra == 'progress'",
        'Classifier: Typing :: Typed',
        'Description-Content-Type: text/markdown',
        '',
        readme,
      ].join('\n'),
    ),
  ]);
  files.push([`${info}/WHEEL`, text('Wheel-Version: 1.0\nGenerator: portal-server\nRoot-Is-Purelib: true\nTag: py3-none-any\n')]);
  files.push([`${info}/top_level.txt`, text(`${WHEEL_NAME}\n`)]);
  const record = files
    .map(([path, data]) => `${path},${recordHash(data)},${data.length}`)
    .concat(`${info}/RECORD,,`, '')
    .join('\n');
  files.push([`${info}/RECORD`, text(record)]);

  // A fixed local timestamp and Unix mode 0644 make the archive identical on every build and every machine.
  const mtime = new Date(1980, 0, 2);
  const zippable: Zippable = {};
  for (const [path, data] of files) zippable[path] = [data, { mtime, os: 3, attrs: (0o100644 << 16) >>> 0, level: 6 }];
  return { fileName: WHEEL_FILE, bytes: Buffer.from(zipSync(zippable)) };
}
