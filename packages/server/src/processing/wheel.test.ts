import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientWheel } from './index';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wheel-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Python client wheel', () => {
  it('is a valid wheel whose RECORD hashes match, identical on every build', async () => {
    const a = await buildClientWheel();
    const b = await buildClientWheel();
    expect(a.fileName).toBe('portal_client-0.2.0-py3-none-any.whl');
    expect(Buffer.compare(a.bytes, b.bytes)).toBe(0);
    const files = unzipSync(a.bytes);
    const info = 'portal_client-0.2.0.dist-info';
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        `portal_client/__init__.py`,
        `portal_client/client.py`,
        `portal_client/errors.py`,
        `portal_client/models.py`,
        `portal_client/py.typed`,
        `${info}/METADATA`,
        `${info}/WHEEL`,
        `${info}/RECORD`,
      ]),
    );
    const record = new TextDecoder().decode(files[`${info}/RECORD`]).trim().split('\n');
    for (const line of record) {
      const [path, hash, size] = line.split(',');
      if (path === `${info}/RECORD`) continue;
      expect(hash).toBe(`sha256=${createHash('sha256').update(files[path]).digest('base64url')}`);
      expect(Number(size)).toBe(files[path].length);
    }
    expect(record).toHaveLength(Object.keys(files).length);
  });

  it('installs with pip into a fresh virtual environment and imports', async () => {
    const { fileName, bytes } = await buildClientWheel();
    const whl = join(dir, fileName);
    writeFileSync(whl, bytes);
    const venv = join(dir, 'venv');
    execFileSync('python3', ['-m', 'venv', venv]);
    execFileSync(join(venv, 'bin/pip'), ['install', '--no-index', '--disable-pip-version-check', '-q', whl]);
    const out = execFileSync(
      join(venv, 'bin/python'),
      ['-c', 'import portal_client; print(portal_client.__version__, portal_client.Client.__name__)'],
      { encoding: 'utf8' },
    );
    expect(out.trim()).toBe('0.2.0 Client');
    // Without a token the client says how to give one instead of failing later.
    const err = execFileSync(
      join(venv, 'bin/python'),
      ['-c', 'import portal_client\ntry:\n    portal_client.Client()\nexcept portal_client.PortalError as e:\n    print(e)'],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    );
    expect(err.trim()).toBe('No token: pass Client(token=...) or set PORTAL_TOKEN.');
    const named = execFileSync(
      join(venv, 'bin/python'),
      ['-c', 'import portal_client\nprint(portal_client.Client(api="http://h:1/", token="t").base_url)'],
      { encoding: 'utf8' },
    );
    expect(named.trim()).toBe('http://h:1');
  }, 120_000);
});
