// A deploy as operators run it: two API processes behind nginx restarted one after the other (out of nginx's rotation,
// SIGTERM, drain, a new process on the same port, back into rotation) while reads and writes keep coming; no request
// may fail and every acknowledged write stays.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxPath, startCluster, type Cluster } from '../../deploy/local-cluster.mjs';

const nginx = nginxPath();
if (!nginx && process.env.CI) throw new Error('The cluster test needs nginx under CI: apt-get install -y nginx (.ci/run does).');

let cluster: Cluster;

/** fetch's error with its cause (the socket's code), so a failure says what the connection did. */
const why = (e: Error) => `${e.message}${e.cause ? ` (${(e.cause as { code?: string }).code ?? String(e.cause)})` : ''}`;

async function api(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.body) headers.set('content-type', 'application/json');
  return fetch(`${cluster.url}${path}`, { ...init, headers });
}

describe.skipIf(!nginx)('a rolling restart behind nginx', () => {
  beforeAll(async () => {
    cluster = await startCluster({ apis: 2, workers: 1, drainS: 3 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('loses no request: every read and write answers, and every acknowledged write is kept', async () => {
    const signup = await api('/api/user/signup', {
      method: 'POST',
      body: JSON.stringify({ email: 'rolling@example.com', username: 'rolling', password: 'Secret-123!', name: 'Rolling' }),
    });
    expect(signup.status).toBe(200);
    const { token, login } = (await signup.json()) as { token: string; login: { client: { list: Array<{ stamp: string }> } } };
    const client = login.client.list[0].stamp;

    const failures: string[] = [];
    const created: string[] = [];
    let reads = 0;
    let stop = false;
    const reader = async () => {
      while (!stop) {
        const r = await api(`/api/bucket/item?client=${client}`, { token }).catch((e: Error) => e);
        // The body is read every time (an unread body holds its connection until it is collected).
        const text = r instanceof Error ? '' : await r.text().catch((e: Error) => `(body cut off: ${why(e)})`);
        if (r instanceof Error || r.status < 200 || r.status > 299)
          failures.push(`read: ${r instanceof Error ? why(r) : `${r.status} ${text}`}`);
        else {
          // The balancer's request id comes back from the process that served it.
          if (!/^[0-9a-f]{32}$/.test(r.headers.get('x-request-id') ?? '')) failures.push(`read without nginx's request id`);
          reads++;
        }
      }
    };
    const send = async (method: string, path: string, body: object) => {
      const r = await api(path, { method, token, body: JSON.stringify(body) }).catch((e: Error) => e);
      const text = r instanceof Error ? '' : await r.text().catch((e: Error) => `(body cut off: ${why(e)})`);
      if (r instanceof Error || r.status < 200 || r.status > 299) {
        failures.push(`${method} ${path}: ${r instanceof Error ? why(r) : `${r.status} ${text}`}`);
        return null;
      }
      return (JSON.parse(text) as { bucket: { stamp: string } }).bucket.stamp;
    };
    // A create (PUT, which nginx may retry) and a rename (POST, which it never retries once sent).
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const stamp = await send('PUT', '/api/bucket/item', { client, name: `W${w} ${i}` });
        if (stamp && (await send('POST', '/api/bucket/name', { bucket: stamp, name: `W${w} ${i} renamed` }))) created.push(stamp);
      }
    };
    const traffic = Promise.all([reader(), reader(), writer(1), writer(2)]);
    try {
      for (let i = 0; i < cluster.apis.length; i++) await cluster.restartApi(i);
    } finally {
      stop = true;
      await traffic;
    }
    // A failure carries what nginx saw of it (its error log names the process and what the connection did).
    if (failures.length) failures.push(`nginx: ${await readFile(join(cluster.dir, 'nginx', 'error.log'), 'utf8').catch(() => '')}`);
    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(20);
    expect(created.length).toBeGreaterThan(10);
    const listed = (await (await api(`/api/bucket/item?client=${client}`, { token })).json()) as {
      bucket: { list: Array<{ stamp: string; name: string }> };
    };
    const kept = new Map(listed.bucket.list.map((b) => [b.stamp, b.name]));
    for (const stamp of created) expect(kept.get(stamp), stamp).toMatch(/ renamed$/);
  });
});
