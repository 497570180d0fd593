import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, openStore } from './store';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'portal-store-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('store', () => {
  it('keeps the token in the config folder with mode 0600, and reads it back in a new process', async () => {
    expect(await configDir({ PORTAL_CONFIG_DIR: dir })).toBe(dir);
    expect(await configDir({})).toMatch(/portal$/);
    const a = await openStore({ PORTAL_CONFIG_DIR: join(dir, 'portal') });
    a.tokens.set('tok.en.1');
    a.set('client', 'c1');
    await a.flush();
    const file = join(dir, 'portal', 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ token: 'tok.en.1', client: 'c1' });
    const b = await openStore({ PORTAL_CONFIG_DIR: join(dir, 'portal') });
    expect(b.tokens.get()).toBe('tok.en.1');
    b.tokens.clear();
    b.set('client', undefined);
    await b.flush();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({});
  });

  it('a missing or broken file reads as empty', async () => {
    const s = await openStore({ PORTAL_CONFIG_DIR: join(dir, 'none') });
    expect(s.tokens.get()).toBeNull();
    expect(s.get('api')).toBeUndefined();
  });
});
