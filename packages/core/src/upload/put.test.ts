import '../../test/dom';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/server';
import { xhrPut } from './put';

const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// A pre-signed URL may lead to a storage on another origin (a cloud bucket that answers CORS). The server's own
// storage answers no CORS preflight (the portal it serves is on its own origin), and no cloud bucket runs here, so a
// scripted storage on another origin stands in for it.
const cors = (res: ServerResponse, status: number, body = '') => {
  res.writeHead(status, {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'PUT',
    'access-control-allow-headers': 'content-type',
    'content-type': 'application/json',
  });
  res.end(body);
  return 'handled' as const;
};

describe('xhrPut to a storage on another origin', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('sends the Blob, reports upload progress up to its size, and resolves on 2xx', async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    let stored: Buffer | undefined;
    const server = await startServer({
      'OPTIONS /store/*': (_req, res) => cors(res, 204),
      'PUT /store/*': (req, res) => {
        stored = req.raw;
        return cors(res, 200);
      },
    });
    servers.push(server);
    const blob = new window.Blob([bytes]);
    const seen: Array<[number, number]> = [];
    await xhrPut(`${server.url}/store/u1?sig=x`, blob, { onProgress: (loaded, total) => seen.push([loaded, total]) });
    expect(hex(stored!)).toBe(hex(bytes));
    expect(seen.at(-1)).toEqual([bytes.length, bytes.length]);
  });

  it('rejects with "Failed to upload files." and the storage\'s reason on a refusal', async () => {
    const server = await startServer({
      'OPTIONS /store/*': (_req, res) => cors(res, 204),
      'PUT /store/*': (_req, res) => cors(res, 400, JSON.stringify({ error: { code: 'invalid_input', message: 'Checksum differs' } })),
    });
    servers.push(server);
    const err = await xhrPut(`${server.url}/store/u1`, new window.Blob(['abc'])).catch((e) => e);
    expect([err.status, err.display, err.serverMessage]).toEqual([400, 'Failed to upload files.', 'Checksum differs']);
  });
});

describe('xhrPut', () => {
  it('rejects at once with an AbortError when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await xhrPut('http://127.0.0.1:9/x', new window.Blob(['abc']), { signal: controller.signal }).catch((e) => e);
    expect(err.name).toBe('AbortError');
  });
});
