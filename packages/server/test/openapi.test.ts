// The published contract: GET /api/openapi.json is a valid OpenAPI 3.1 document of every call of core's CALLS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_DOCS_PATH, CALL_REFERENCE, ERROR_CODES, MESSAGES, type CallName } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { startServer, type TestServer } from './harness';

type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required: boolean; schema: unknown; description?: string }>;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<
    string,
    { $ref?: string; content?: Record<string, { schema: { $ref: string }; examples?: Record<string, { value: unknown }> }> }
  >;
  'x-spec': boolean;
};
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }>; securitySchemes: Record<string, unknown> };
};

describe('GET /api/openapi.json', () => {
  let server: TestServer;
  let doc: Doc;

  beforeAll(async () => {
    server = await startServer('embedded', { worker: false });
    const res = await fetch(new URL('/api/openapi.json', server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as Doc;
  });
  afterAll(async () => {
    await server?.close();
  });

  const op = (name: CallName) => doc.paths[CALLS[name].path][CALLS[name].method.toLowerCase()];

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every call of the contract with its method, path, operationId and summary', () => {
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(ids.sort()).toEqual(Object.keys(CALLS).sort());
    for (const name of Object.keys(CALLS) as CallName[]) {
      expect(op(name).operationId).toBe(name);
      expect(op(name).summary).toBe(CALL_REFERENCE[name].summary);
      expect(op(name)['x-spec']).toBe(!!CALL_REFERENCE[name].spec);
    }
  });

  it('declares the bearer schemes: sessions everywhere, API keys on the calls that take them', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'basic', 'resetToken', 'session']);
    expect(op('bucketList').security).toEqual([{ session: [] }, { apiKey: [] }]);
    expect(op('apikeyCreate').security).toEqual([{ session: [] }]);
    expect(op('login').security).toEqual([{ basic: [] }]);
    expect(op('signup').security).toEqual([]);
  });

  it('gives queries as parameters, bodies as schemas, and paged lists limit, cursor and next', () => {
    const params = op('bucketList').parameters!;
    expect(params.find((p) => p.name === 'client')).toMatchObject({ in: 'query', required: true });
    for (const name of ['limit', 'cursor']) expect(params.find((p) => p.name === name)).toMatchObject({ required: false });
    const list = doc.components.schemas[op('bucketList').responses[200].content!['application/json'].schema.$ref.split('/').pop()!];
    expect(JSON.stringify(list)).toContain('"next"');
    const body = op('bucketCreate').requestBody!.content['application/json'].schema.$ref.split('/').pop()!;
    expect(Object.keys(doc.components.schemas[body].properties!)).toEqual(['client', 'name']);
  });

  it('names the media type of a streamed answer: the listen stream is NDJSON, each line a WebhookListenLine', () => {
    const ok = op('webhookListen').responses[200].content!;
    expect(Object.keys(ok)).toEqual(['application/x-ndjson']);
    expect(ok['application/x-ndjson'].schema.$ref).toBe('#/components/schemas/WebhookListenLine');
    expect(Object.keys(op('webhookList').responses[200].content!)).toEqual(['application/json']);
  });

  it("answers errors in the wire's shape, with SPEC's sentences as examples", () => {
    const bad = op('bucketCreate').responses[400].content!['application/json'];
    expect(bad.schema.$ref).toBe('#/components/schemas/ErrorBody');
    expect(bad.examples!.title.value).toEqual({ error: { code: ERROR_CODES.invalid, message: MESSAGES.titleCreate } });
    expect(op('bucketCreate').responses[401].$ref).toBe('#/components/responses/Unauthorized');
    expect(op('login').responses[429].$ref).toBe('#/components/responses/TooManyRequests');
    expect(JSON.stringify(doc)).toContain(MESSAGES.tokenMissing);
  });

  it('marks the additions beyond SPEC', () => {
    expect(op('audit')['x-spec']).toBe(false);
    expect(op('bucketCreate')['x-spec']).toBe(true);
  });

  it('renders /api/docs from it with Swagger UI, every asset from this server and no inline script', async () => {
    const page = await fetch(new URL(API_DOCS_PATH, server.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).not.toMatch(/<script>|https?:|\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], new URL(API_DOCS_PATH, server.url)));
    expect(assets.map((u) => u.pathname)).toContain('/api/docs/swagger-ui-bundle.js');
    for (const url of assets) expect((await fetch(url)).status, url.pathname).toBe(200);
    const init = await (await fetch(new URL('/api/docs/init.js', server.url))).text();
    expect(new URL(/url: "([^"]+)"/.exec(init)![1], new URL(API_DOCS_PATH, server.url)).pathname).toBe('/api/openapi.json');
    expect(init).toContain('validatorUrl: null');
    // Only the page's own assets: the rest of Swagger UI's package is not served.
    for (const path of ['/api/docs/package.json', '/api/docs/swagger-ui-bundle.js.map', '/api/docs/index.html', '/api/docs/']) {
      expect((await fetch(new URL(path, server.url))).status, path).toBe(404);
    }
  });
});
