import { createHash, randomFillSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSource, sha256File } from '../node';
import { uploadGroupName } from './pipeline';
import { sha256Stream } from './hash';

const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-upload-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const randomBytes = (n: number) => randomFillSync(new Uint8Array(n));

describe('uploadGroupName', () => {
  it('is the first file name, with a suffix for extra files', () => {
    expect(uploadGroupName([{ name: 'a.json' }])).toBe('a.json');
    expect(uploadGroupName([{ name: 'a.json' }, { name: 'b.json' }])).toBe('a.json (+1 more)');
    expect(uploadGroupName([{ name: 'a.json' }, { name: 'b' }, { name: 'c' }])).toBe('a.json (+2 more)');
  });
  it('stays within the 60-character title limit', () => {
    const long = `${'x'.repeat(80)}.json`;
    const name = uploadGroupName([{ name: long }, { name: 'b' }]);
    expect(name.length).toBeLessThanOrEqual(60);
    expect(name.endsWith(' (+1 more)')).toBe(true);
  });
});

describe('hashing', () => {
  it('streams the same SHA-256 as an in-memory digest, on disk and from a Blob', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const path = fileOf('hash.bin', bytes);
    expect(await sha256File(path)).toBe(hex(bytes));
    const blob = new File([bytes], 'hash.bin');
    expect(await sha256Stream(blob)).toBe(hex(bytes));
    // Beyond the Web Crypto size the incremental hash takes over.
    const big = randomBytes(33 * 1024 * 1024);
    expect(await sha256Stream(new File([big], 'big.bin'))).toBe(hex(big));
  });
  it('hashes an empty file', async () => {
    expect(await sha256File(fileOf('empty.bin', new Uint8Array(0)))).toBe(hex(new Uint8Array(0)));
  });
});

describe('sha256File', () => {
  it('stops when cancelled', async () => {
    const path = fileOf('abort.bin', randomBytes(6 * 1024 * 1024));
    const controller = new AbortController();
    controller.abort();
    await expect(sha256File(path, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
  it('says clearly when a path is missing or not a file', () => {
    expect(() => fileSource(join(dir, 'missing.json'))).toThrow(`File not found: ${join(dir, 'missing.json')}`);
    expect(() => fileSource(dir)).toThrow(`Not a file: ${dir}`);
  });
  it('gives a file source its name, size and a matching hash', async () => {
    const bytes = randomBytes(1234);
    const source = fileSource(fileOf('named.json', bytes), 'shown.json');
    expect([source.name, source.size]).toEqual(['shown.json', 1234]);
    expect(await sha256Stream(source)).toBe(hex(bytes));
  });
});
