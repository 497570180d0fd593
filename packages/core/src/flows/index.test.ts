import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, memoryTokenStore } from '../client';
import { jwt, startServer, type TestServer } from '../testing/server';
import { createFitRequest, createShrinkRequest } from '.';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const run = (stamp: string, fn: string) => ({ run: { stamp, name: 'Req', desc: '', function: fn, state: 'Pending', message: '', createdAt: 1, rend: null } });

async function setup(failGenerate = false) {
  const server = await startServer({
    'PUT /api/pile/item': (req) => {
      const b = req.body as { variety: string; param: object };
      return { json: { pile: { stamp: b.variety === 'FitModel' ? 'pfit' : 'pshrink', variety: b.variety, param: b.param, createdAt: 1 } } };
    },
    'PUT /api/run/item/generate': (req) => {
      const fn = (req.body as { function: string }).function;
      if (fn === 'generate' && failGenerate) return { status: 500, json: { error: { code: 'internal', message: 'queue down' } } };
      return { json: run(fn === 'fit' ? 'rfit' : 'rgen', fn) };
    },
    'PUT /api/run/item/shrink': () => ({
      json: { quote: { stamp: 'q1', name: 'S', desc: 'd', function: 'shrink', state: 'Unpaid', message: '', cent: 22, invoiceNum: 'INV-1', createdAt: 1, rend: null } },
    }),
  });
  servers.push(server);
  return { server, api: new ApiClient({ baseUrl: server.url, tokens: memoryTokenStore(jwt(Math.floor(Date.now() / 1000) + 3600)) }) };
}

describe('createFitRequest', () => {
  it('creates pile → fit run → generate run and returns the generate run', async () => {
    const { api, server } = await setup();
    const param = { explainability: false, input_column_size: 3, output_column_size: 5, task_target_size: 1 };
    expect(await createFitRequest(api, { bucket: 'b1', upload: 'r1', name: '  My fit ', param })).toBe('rgen');
    expect(server.requests.map((r) => r.body)).toEqual([
      { bucket: 'b1', variety: 'FitModel', param: { ...param, task: 'regression' } },
      { bucket: 'b1', function: 'fit', rend: 'r1', pile: 'pfit', name: 'My fit' },
      { bucket: 'b1', function: 'generate', rend: 'r1', fit: 'rfit', name: 'My fit' },
    ]);
  });
  it('fails with "Failed to create request" when a step fails', async () => {
    const { api } = await setup(true);
    const param = { explainability: false, input_column_size: 1, output_column_size: 1, task_target_size: 1, task: 'classification' as const };
    await expect(createFitRequest(api, { bucket: 'b1', upload: 'r1', name: 'F', param })).rejects.toMatchObject({ display: 'Failed to create request', serverMessage: 'queue down' });
  });
});

describe('createShrinkRequest', () => {
  it('creates pile → shrink and returns the quote', async () => {
    const { api, server } = await setup();
    expect(await createShrinkRequest(api, { bucket: 'b1', upload: 'r1', name: 'S', desc: 'd' })).toBe('q1');
    expect(server.requests.map((r) => r.body)).toEqual([
      { bucket: 'b1', variety: 'ShrinkService', param: {} },
      { bucket: 'b1', function: 'shrink', rend: 'r1', pile: 'pshrink', name: 'S', desc: 'd' },
    ]);
  });
});
