// The clients checked against the published contract: every call the Python client makes is an operation of
// /api/openapi.json with that method, every call an API key may make is one the Python client makes (or is named
// below with why not), and `portal api` completes exactly the document's paths. A call added to the contract and
// missed by a client fails here.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, portal, startServer, type Started } from './harness';

type Doc = { paths: Record<string, Record<string, { operationId: string; security?: Array<Record<string, string[]>> }>> };

/** Calls an API key may make that the Python client leaves out on purpose, and why. */
const PYTHON_LEAVES_OUT: Record<string, string> = {
  runRerun: 'a rerun is a portal action (the Python client creates a new request instead)',
};

const PYTHON = join(ROOT, 'packages/server/python/portal_client');

/** The (method, path) of every call in the Python client's sources: `_call("GET", "/api/...")`, `_paged("/api/...")` and login's request. */
async function pythonCalls(): Promise<Set<string>> {
  const calls = new Set<string>();
  for (const file of (await readdir(PYTHON)).filter((f) => f.endsWith('.py'))) {
    const text = await readFile(join(PYTHON, file), 'utf8');
    for (const m of text.matchAll(/\._?call\(\s*"([A-Z]+)",\s*"(\/api\/[^"]+)"/g)) calls.add(`${m[1]} ${m[2]}`);
    for (const m of text.matchAll(/\._paged\(\s*"(\/api\/[^"]+)"/g)) calls.add(`GET ${m[1]}`);
    for (const m of text.matchAll(/\.url\("(\/api\/[^"]+)"\)[^)]*?method="([A-Z]+)"/g)) calls.add(`${m[2]} ${m[1]}`);
  }
  return calls;
}

describe('the clients against /api/openapi.json', () => {
  let server: Started;
  let doc: Doc;
  beforeAll(async () => {
    server = await startServer();
    doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Doc;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );

  it("the Python client's calls are the document's, and it makes every call an API key may make", async () => {
    const python = await pythonCalls();
    // The parse found the client's calls (a change of its style would otherwise pass unseen).
    expect(python.size).toBeGreaterThan(20);
    const documented = new Set(operations().map((o) => o.key));
    expect([...python].filter((c) => !documented.has(c))).toEqual([]);
    const keyCalls = operations().filter((o) => o.op.security?.some((s) => 'apiKey' in s));
    expect(keyCalls.length).toBeGreaterThan(10);
    const missed = keyCalls.filter((o) => !python.has(o.key) && !(o.op.operationId in PYTHON_LEAVES_OUT)).map((o) => o.op.operationId);
    expect(missed).toEqual([]);
    // A call named as left out that the client makes after all, or that keys can no longer make, leaves the list.
    for (const name of Object.keys(PYTHON_LEAVES_OUT)) {
      const call = keyCalls.find((o) => o.op.operationId === name);
      expect(call, name).toBeDefined();
      expect(python.has(call!.key), name).toBe(false);
    }
  });

  it('`portal api` completes every path of the document and nothing else', async () => {
    const res = await portal(server.dir, server.url, ['__complete', 'api']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n').filter(Boolean).sort()).toEqual(Object.keys(doc.paths).sort());
    const bash = await portal(server.dir, server.url, ['completion', 'bash']);
    expect(bash.stdout).toContain('"api") noun=api ;;');
  });
});
