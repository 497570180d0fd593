// What the worker benchmarks share: bundling a server source with esbuild, the built server in a process of its own,
// calls to its API, a signed-up client with a project, one file sent as a new upload, and a median.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuilt } from '../../packages/testkit/src/built.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Bundles a source of the repository (`entry`, from the root) into one ES module at `outfile`. */
export async function bundle(entry, outfile) {
  const { build } = await import('esbuild');
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
}

/** The built server (packages/server/dist) on a free port over `dataDir`; `stop()` ends it and resolves once it has. */
export const startServer = (dataDir) => startBuilt({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: '10000' });

/** One API call; its JSON answer, or an error naming the call. */
export async function api(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A new account (named after `label`) with a project of that name: its token and the project's stamp. */
export async function client(base, label) {
  const n = `${label}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`.slice(0, 30);
  const s = await api(base, 'POST', '/api/user/signup', null, {
    email: `${n}@example.com`,
    username: n,
    password: 'Bench-pass1!',
    name: `Company ${n}`,
  });
  const bucket = (await api(base, 'PUT', '/api/bucket/item', s.token, { client: s.login.client.list[0].stamp, name: label })).bucket.stamp;
  return { token: s.token, bucket };
}

/** Registers, sends and finishes one file as a new upload; the upload's stamp and its file's. */
export async function send(base, c, name, bytes) {
  const rend = (await api(base, 'PUT', '/api/rend/item', c.token, { bucket: c.bucket, name })).rend.stamp;
  const checksum = createHash('sha256').update(bytes).digest('hex');
  const reg = await api(base, 'PUT', '/api/upload/item', c.token, { rend, name, file: { name, size: bytes.length, checksum } });
  const put = await fetch(reg.upload.url, { method: 'PUT', body: new Uint8Array(bytes) });
  if (!put.ok) throw new Error(`PUT ${name}: ${put.status}`);
  await api(base, 'POST', '/api/upload/finish', c.token, { upload: reg.upload.stamp });
  await api(base, 'POST', '/api/rend/finish', c.token, { rend });
  return { rend, item: reg.upload.stamp };
}
