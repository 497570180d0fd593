#!/usr/bin/env node
// The floor for any Node client of the upload protocol: what `portal uploads push` does (create the upload, hash the
// file, register it with its checksum, PUT the bytes to the pre-signed URL, finish the item and the upload) with
// nothing else: node:http with one kept-alive connection, node:crypto, no response checks, no progress, no retries.
// bench/cli times it beside the portal and the sha256sum + curl baseline.
// Usage: bare-push.mjs FILE PROJECT_ID TOKEN API_BASE
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { basename } from 'node:path';

const [file, bucket, token, api] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });
const CHUNK = 512 * 1024;

function send(method, url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        res.statusCode < 300 ? resolve(text ? JSON.parse(text) : null) : reject(new Error(`${method} ${url}: ${res.statusCode} ${text}`)),
      );
    });
    req.on('error', reject);
    if (typeof body === 'function') body(req);
    else req.end(body);
  });
}
const call = (method, path, body) => {
  const data = JSON.stringify(body);
  return send(
    method,
    api + path,
    { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
    data,
  );
};
async function eachChunk(fn) {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) return;
      await fn(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
}

const name = basename(file);
const { size } = await stat(file);
// The checksum is read while the upload is created, as the portal does.
const hashing = (async () => {
  const hash = createHash('sha256');
  await eachChunk((c) => hash.update(c));
  return hash.digest('hex');
})();
const { rend } = await call('PUT', '/api/rend/item', { bucket, name });
const { upload } = await call('PUT', '/api/upload/item', { rend: rend.stamp, name, file: { checksum: await hashing, name, size } });
await send(
  'PUT',
  upload.url.startsWith('http') ? upload.url : api + upload.url,
  { 'content-type': 'application/octet-stream', 'content-length': size },
  (req) => {
    eachChunk((c) => new Promise((ok, fail) => req.write(c, (e) => (e ? fail(e) : ok())))).then(
      () => req.end(),
      (e) => req.destroy(e),
    );
  },
);
await call('POST', '/api/upload/finish', { upload: upload.stamp });
await call('POST', '/api/rend/finish', { rend: rend.stamp });
agent.destroy();
