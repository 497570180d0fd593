import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, memoryStore, openStore } from './store';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'portal-store-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('store', () => {
  it('keeps the token in the config folder with mode 0600, and reads it back in a new process', async () => {
    expect(await configDir({ PORTAL_CONFIG_DIR: dir })).toBe(dir);
    expect(await configDir({})).toMatch(/portal$/);
    const a = await openStore({ PORTAL_CONFIG_DIR: join(dir, 'portal') });
    a.host('http://localhost:8080/').tokens.set('tok.en.1');
    a.host('http://localhost:8080').set('client', 'c1');
    a.host('https://Staging.Example.com:443/api').tokens.set('tok.en.2');
    await a.flush();
    const file = join(dir, 'portal', 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      hosts: { 'http://localhost:8080': { token: 'tok.en.1', client: 'c1' }, 'https://staging.example.com': { token: 'tok.en.2' } },
    });
    const b = await openStore({ PORTAL_CONFIG_DIR: join(dir, 'portal') });
    expect(b.host('http://localhost:8080').tokens.get()).toBe('tok.en.1');
    expect(b.host('http://localhost:8081').tokens.get()).toBeNull();
    b.forget('http://localhost:8080');
    b.host('https://staging.example.com').tokens.clear();
    await b.flush();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({});
  });

  it("moves the single token of an older file under its API's origin, and only there", async () => {
    const folder = join(dir, 'portal');
    await mkdir(folder, { recursive: true });
    const file = join(folder, 'config.json');
    await writeFile(file, JSON.stringify({ api: 'http://127.0.0.1:4000/', token: 't.o.k', client: 'c1', project: 'b1' }), { mode: 0o600 });
    const s = await openStore({ PORTAL_CONFIG_DIR: folder });
    expect(s.host('http://127.0.0.1:4000').tokens.get()).toBe('t.o.k');
    expect(s.host('http://127.0.0.1:4000').get('project')).toBe('b1');
    expect(s.host('http://localhost:8080').tokens.get()).toBeNull();
    await s.flush();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      api: 'http://127.0.0.1:4000/',
      hosts: { 'http://127.0.0.1:4000': { token: 't.o.k', client: 'c1', project: 'b1' } },
    });
    // Without a stored API base, the token was for the default one.
    expect(memoryStore({ token: 'x.y.z' }).host('http://localhost:8080').tokens.get()).toBe('x.y.z');
  });

  it('a missing or broken file reads as empty', async () => {
    const s = await openStore({ PORTAL_CONFIG_DIR: join(dir, 'none') });
    expect(s.host('http://localhost:8080').tokens.get()).toBeNull();
    expect(s.get('api')).toBeUndefined();
  });
});
