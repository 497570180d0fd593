// The web portal on the same origin: built files, index.html for client routes, a notice when it is not built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { startServer, type TestServer } from './harness';

describe('web portal', () => {
  let dist: string;
  let built: TestServer;
  let missing: TestServer;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'portal-web-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');
    await writeFile(join(dist, 'assets', 'app.js'), 'console.log("app")');
    await writeFile(join(dist, 'contact.html'), '<h1>Contact</h1>');
    await writeFile(join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
    // What the build writes beside each text asset.
    const big = `console.log(${JSON.stringify('x'.repeat(5000))})`;
    await writeFile(join(dist, 'assets', 'main-AbCd1234.js'), big);
    await writeFile(join(dist, 'assets', 'main-AbCd1234.js.br'), brotliCompressSync(big));
    await writeFile(join(dist, 'assets', 'main-AbCd1234.js.gz'), gzipSync(big));
    built = await startServer('embedded', { worker: false, webDist: dist });
    missing = await startServer('embedded', { worker: false, webDist: join(dist, 'nope') });
  });
  afterAll(async () => {
    await built?.close();
    await missing?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves the built files and falls back to index.html for client routes', async () => {
    const js = await fetch(new URL('/assets/app.js', built.url));
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(await (await fetch(new URL('/contact.html', built.url))).text()).toContain('Contact');
    for (const path of ['/', '/signup', '/client/c_1/project/b_2/runs', '/reset-password?token=abc', '/account/email/confirm?token=abc']) {
      const page = await fetch(new URL(path, built.url));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect((await fetch(new URL('/assets/missing.js', built.url))).status).toBe(404);
    // Only the screen table's paths get the portal's page: a probe of a path the product does not have is a real 404.
    for (const path of ['/healthz', '/status', '/client', '/client/c_1/project/b_2/nothing']) {
      const res = await fetch(new URL(path, built.url));
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    const api = await fetch(new URL('/api/unknown/route', built.url));
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
    // A person's browser at an address of no screen: still a 404, with the portal's page (it says so and leads back).
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const typo = await fetch(new URL('/client/c_1/project/b_2/nothing', built.url), { headers: html });
    expect(typo.status).toBe(404);
    expect(await typo.text()).toContain('<div id="root">');
    const apiPage = await fetch(new URL('/api/unknown/route', built.url), { headers: html });
    expect(apiPage.status).toBe(404);
    expect((await apiPage.json()).error.code).toBe('not_found');
  });

  it('sends the precompressed copy the browser accepts, caches hashed assets for a year and never caches index.html', async () => {
    // node:http rather than fetch, which would decode the body and hide what was sent.
    const get = (path: string, encoding: string) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }>((done, fail) => {
        const req = request(new URL(path, built.url), { headers: { 'accept-encoding': encoding } }, (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
        });
        req.on('error', fail);
        req.end();
      });
    const br = await get('/assets/main-AbCd1234.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.bytes).toBeLessThan(200);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await get('/assets/main-AbCd1234.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await get('/assets/main-AbCd1234.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes).toBeGreaterThan(5000);
    for (const path of ['/', '/index.html', '/client/c_1/projects']) {
      const page = await get(path, 'br');
      expect(page.status, path).toBe(200);
      expect(page.headers['cache-control'], path).toBe('no-cache');
    }
    const icon = await get('/favicon.ico', 'identity');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('says so when the portal is not built, while the API keeps working', async () => {
    const page = await fetch(new URL('/client/x/projects', missing.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('The web portal is not built');
    expect((await fetch(new URL('/api/health', missing.url))).status).toBe(200);
  });
});
