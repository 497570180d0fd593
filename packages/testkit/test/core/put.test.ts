import '@portal/core/testing/dom';
import { createHash, randomFillSync } from 'node:crypto';
import { JSDOM } from 'jsdom';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiClient, rows, seedEmptyProject, setPlan, withTestApi } from '@portal/testkit/api';
import { storedBytes } from '@portal/testkit/seed';
import { xhrPut } from '@portal/core';

const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// The web portal is served by the server itself, so its PUTs to the server's own storage are same-origin:
// jsdom's XHR from a page on the server's origin, to the real storage.
describe("xhrPut to the server's storage, from a page on its origin", { timeout: 30_000 }, () => {
  const server = withTestApi({ worker: false });
  beforeEach(async () => {
    // Enterprise allows files over the Individual plan's 1 MB.
    await setPlan(server, server.user.client, 'Enterprise');
  });

  /** Registers a file of these bytes (under another checksum if given); its upload link and item. */
  async function register(bytes: Uint8Array, checksum = hex(bytes)) {
    const api = apiClient(server);
    const project = (await seedEmptyProject(server)).stamp;
    const { rend } = await api.calls.rendCreate({ bucket: project, name: 'data.json' });
    const file = { checksum, name: 'data.json', size: bytes.length };
    const { upload } = await api.calls.uploadRegister({ rend: rend.stamp, name: 'data.json', file });
    return { url: api.resolve(upload.url), item: upload.stamp };
  }

  /** Runs `fn` with the XMLHttpRequest and Blob of a page loaded from the server's origin. */
  async function onPage<T>(fn: (page: JSDOM['window']) => Promise<T>): Promise<T> {
    const page = new JSDOM('<!doctype html>', { url: `${server.url}/` }).window;
    const g = globalThis as { XMLHttpRequest: unknown };
    const shared = g.XMLHttpRequest;
    g.XMLHttpRequest = page.XMLHttpRequest;
    try {
      return await fn(page);
    } finally {
      g.XMLHttpRequest = shared;
      page.close();
    }
  }

  it('sends the Blob, reports upload progress up to its size, and resolves on 2xx', async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    const { url, item } = await register(bytes);
    const seen: Array<[number, number]> = [];
    await onPage((page) => xhrPut(url, new page.Blob([bytes]), { onProgress: (loaded, total) => seen.push([loaded, total]) }));
    expect(server.calls).toEqual(['rendCreate', 'uploadRegister', 'storagePut']);
    expect(await storedBytes(server, item)).toEqual({ size: bytes.length, sha256: hex(bytes) });
    expect(seen.at(-1)).toEqual([bytes.length, bytes.length]);
  });

  it('rejects with "Failed to upload files." and the storage\'s reason on a refusal', async () => {
    const bytes = randomFillSync(new Uint8Array(1000));
    // Registered with another checksum: the storage finds the bytes differ and refuses them.
    const { url, item } = await register(bytes, hex(randomFillSync(new Uint8Array(1000))));
    const err = await onPage((page) => xhrPut(url, new page.Blob([bytes]))).catch((e) => e);
    expect([err.status, err.display]).toEqual([400, 'Failed to upload files.']);
    expect(err.serverMessage).toBe(
      "The file's SHA-256 checksum differs from the one registered: the file changed or was damaged in transit.",
    );
    expect(await storedBytes(server, item)).toBeNull();
    const row = await rows(server).selectFrom('uploads').select(['state', 'error']).where('stamp', '=', item).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'Failed', error: err.serverMessage });
  });
});
