import '../testing/dom';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, memoryTokenStore, type TokenStore } from '../client';
import type { Bucket } from '../contract';
import { jwt, make, startServer, type TestServer } from '../testing/server';
import { PortalProvider, type NotifyKind } from './context';
import { useCopy } from './useCopy';
import { useAuth } from './useAuth';
import { useApiKeys, useClient, useIntegrations, useModels, usePermissions, useProjects, useRuns, useUploads } from './lists';
import { useBilling, useQuoteDetails, useRunDetails } from './details';
import { useFitRequest, useShrinkRequest } from './requests';
import type { UploadProgress } from '../upload';
import { createHash } from 'node:crypto';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const later = () => jwt(Math.floor(Date.now() / 1000) + 3600);

async function setup(routes: Parameters<typeof startServer>[0], tokens: TokenStore = memoryTokenStore(later())) {
  const server = await startServer(routes);
  servers.push(server);
  const api = new ApiClient({ baseUrl: server.url, tokens });
  const notes: Array<[string, NotifyKind | undefined]> = [];
  const notifier = { notify: (m: string, k?: NotifyKind) => void notes.push([m, k]) };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PortalProvider api={api} notifier={notifier}>
      {children}
    </PortalProvider>
  );
  return { server, api, notes, wrapper, tokens };
}

const client = make.client({ stamp: 'c1', name: 'Acme Labs', plan: 'Individual', choice: 'CloudPremise' });

function projectRoutes() {
  let projects: Bucket[] = [make.bucket({ stamp: 'b1', name: 'First' })];
  return {
    'GET /api/bucket/item': () => ({ json: { client: { list: [client] }, bucket: { list: projects } } }),
    'PUT /api/bucket/item': (req: { body: unknown }) => {
      const b = make.bucket({ stamp: 'b2', name: (req.body as { name: string }).name });
      projects = [...projects, b];
      return { json: { bucket: b } };
    },
    'POST /api/bucket/remove': (req: { body: unknown }) => {
      projects = projects.filter((p) => p.stamp !== (req.body as { bucket: string }).bucket);
      return { json: { ok: true } };
    },
    'POST /api/bucket/name': () => ({ status: 500, json: { error: { code: 'internal', message: 'boom' } } }),
  };
}

describe('useProjects', () => {
  it('loads, creates (new project in the list), removes (it leaves), and reports failures with SPEC texts', async () => {
    const { wrapper, notes, server } = await setup(projectRoutes());
    const { result } = renderHook(() => useProjects('c1'), { wrapper });
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.data?.projects.map((p) => p.name)).toEqual(['First']));
    expect(result.current.data?.client?.name).toBe('Acme Labs');
    expect(server.requests[0].query).toEqual({ active: '1', client: 'c1' });

    let outcome: string | null = 'unset';
    await act(async () => void (outcome = await result.current.create('   ')));
    expect(outcome).toBe('Please enter the title between 1 and 60 characters long');
    expect(notes.at(-1)).toEqual(['Please enter the title between 1 and 60 characters long', 'error']);

    await act(async () => void (outcome = await result.current.create('  Second  ')));
    expect(outcome).toBeNull();
    expect(result.current.created).toBe('b2');
    expect(result.current.data?.projects.map((p) => p.name)).toEqual(['First', 'Second']);

    await act(async () => void (outcome = await result.current.rename('b1', 'x'.repeat(61))));
    expect(outcome).toBe('Title must be between 1 and 60 characters long');
    await act(async () => void (outcome = await result.current.rename('b1', 'Renamed')));
    expect(outcome).toBe('Failed to rename project...');
    expect(notes.at(-1)).toEqual(['Failed to rename project...', 'error']);

    await act(async () => void (outcome = await result.current.remove('b1')));
    expect(outcome).toBeNull();
    expect(result.current.data?.projects.map((p) => p.stamp)).toEqual(['b2']);
  });
});

describe('usePermissions and useClient', () => {
  it('reads the permission list in either shape and finds the client', async () => {
    const { wrapper } = await setup({ 'GET /api/user/permission': () => ({ json: { permission: { list: [{ client, createdAt: 1 }] } } }) });
    const { result } = renderHook(() => useClient('c1'), { wrapper });
    await waitFor(() => expect(result.current.client?.choice).toBe('CloudPremise'));
  });
  it('notifies "Error fetching permissions" once when the list cannot be read', async () => {
    const { wrapper, notes } = await setup({ 'GET /api/user/permission': () => ({ status: 500, json: { error: { code: 'internal', message: 'down' } } }) });
    const { result } = renderHook(() => usePermissions(), { wrapper });
    await waitFor(() => expect(result.current.error?.display).toBe('Error fetching permissions'));
    expect(notes).toEqual([['Error fetching permissions', 'error']]);
  });
  it('leaves a missing token to the door: error "Token missing", no notification', async () => {
    const { wrapper, notes } = await setup({}, memoryTokenStore(null));
    const { result } = renderHook(() => usePermissions(), { wrapper });
    await waitFor(() => expect(result.current.error?.display).toBe('Token missing'));
    expect(notes).toEqual([]);
  });
});

describe('useRunDetails', () => {
  it('polls until the request reaches a final state, then downloads the result', async () => {
    let polls = 0;
    const run = { stamp: 'r1', name: 'Req', desc: '', function: 'generate', message: '', createdAt: 1, rend: null };
    const { wrapper } = await setup({
      'GET /api/run/status': () => {
        polls++;
        const state = polls < 2 ? 'Processing' : 'Finished';
        return { json: { run: { record: { ...run, state }, url: state === 'Finished' ? '/api/result/r1' : null } } };
      },
      'GET /api/result/r1': () => ({ text: '{"embeddings":[[1,2]]}' }),
    });
    const { result } = renderHook(() => useRunDetails('c1', 'b1', 'r1'), { wrapper });
    await waitFor(() => expect(result.current.data?.run.record.state).toBe('Processing'));
    await waitFor(() => expect(result.current.data?.run.record.state).toBe('Finished'), { timeout: 5000 });
    const file = await result.current.download();
    expect(file.text).toBe('{"embeddings":[[1,2]]}');
    expect(file.fileName).toMatch(/^ensemble_result_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.json$/);
    await new Promise((r) => setTimeout(r, 3300));
    expect(polls).toBe(2);
  }, 12_000);
});

describe('useShrinkRequest', () => {
  it('lists Ready uploads, estimates the price and checks the form before creating the quote', async () => {
    const readyRend = make.rend({ stamp: 'r1', flight: 'Ready', upload: { list: [make.item({ meta: { proc: 1, cols: 3, rows: 10, inputs: 1_000_001, error: null } })] } });
    const pending = make.rend({ stamp: 'r2', flight: 'Pending' });
    const { wrapper, server } = await setup({
      'GET /api/rend/item': () => ({ json: { rend: { list: [readyRend, pending] } } }),
      'GET /api/client/billing/status': () => ({ json: { billing: { creditBalance: '1.5', creditConsumed: '0.5', accountCentBalance: 0, portalUrl: 'http://pay' } } }),
      'PUT /api/pile/item': () => ({ json: { pile: { stamp: 'p1', variety: 'ShrinkService', param: {}, createdAt: 1 } } }),
      'PUT /api/run/item/shrink': () => ({
        json: { quote: { stamp: 'q1', name: 'S', desc: '', function: 'shrink', state: 'Unpaid', message: '', cent: 44, invoiceNum: 'INV-1', createdAt: 1, rend: null } },
      }),
    });
    const { result, unmount } = renderHook(() => useShrinkRequest('c1', 'b1'), { wrapper });
    await waitFor(() => expect(result.current.readyUploads.map((r) => r.stamp)).toEqual(['r1']));
    expect(result.current.billing?.creditBalance).toBe('1.5');
    expect(result.current.estimateCents(['r1'])).toBe(44);
    expect(result.current.estimateCents([])).toBe(0);
    // One load at mount; the next waits for the poller's 20 s.
    await new Promise((r) => setTimeout(r, 300));
    expect(server.requests.filter((r) => r.path === '/api/rend/item')).toHaveLength(1);
    act(() => result.current.reload());
    await waitFor(() => expect(server.requests.filter((r) => r.path === '/api/rend/item')).toHaveLength(2));
    expect(await result.current.submit({ name: 'S', desc: '', upload: '' })).toEqual({ error: 'Please select an upload for this request' });
    expect(await result.current.submit({ name: 'S', desc: 'x'.repeat(301), upload: 'r1' })).toEqual({ error: 'Description must be at most 300 characters long' });
    expect(await result.current.submit({ name: 'S', desc: '', upload: 'r2' })).toEqual({ error: 'Selected upload not found' });
    expect(await result.current.submit({ name: 'S', desc: '', upload: 'r1' })).toEqual({ quoteId: 'q1' });
    unmount();
  });
});

describe('useCopy', () => {
  it('shows the copied label for one second, and the SPEC message when the clipboard refuses', async () => {
    const { wrapper, notes } = await setup({});
    const { result } = renderHook(() => useCopy(), { wrapper });
    await act(() => result.current.copy('token', 'abc', async () => {}));
    expect(result.current.copied).toBe('token');
    await waitFor(() => expect(result.current.copied).toBeNull(), { timeout: 2000 });
    await act(() => result.current.copy('code', 'pip', () => Promise.reject(new Error('denied'))));
    expect(notes).toEqual([['Failed to copy code.', 'error']]);
    expect(result.current.copied).toBeNull();
  });
});

describe('useAuth', () => {
  it('stores the token on login, shows "Invalid credentials" on refusal, and clears it on logout', async () => {
    const token = later();
    const { wrapper, tokens, server } = await setup(
      {
        'POST /api/user/login': (req) =>
          req.headers.authorization === `Basic ${Buffer.from('ann@example.com:Secret#1').toString('base64')}`
            ? { json: { login: { client: { list: [client] }, bucket: { list: [] } }, token } }
            : { status: 401, json: { error: { code: 'unauthorized', message: 'Wrong email or password' } } },
      },
      memoryTokenStore(null),
    );
    const { result } = renderHook(() => useAuth(), { wrapper });
    expect(await result.current.login('', '')).toBe('Please fill out all fields');
    expect(await result.current.login('ann@example.com', 'nope')).toBe('Invalid credentials');
    expect(tokens.get()).toBeNull();
    expect(await result.current.login(' ann@example.com ', 'Secret#1')).toBeNull();
    expect(tokens.get()).toBe(token);
    result.current.logout();
    expect(tokens.get()).toBeNull();
    expect(server.requests).toHaveLength(2);
  });
});

describe('key lists', () => {
  it('show only active keys and check the integration token length before calling', async () => {
    const key = (clue: string, active: 0 | 1) => ({ clue, name: clue, token: 't', installs: 0, installedAt: null, active, createdAt: 1, pack: { linux64: 'p.whl' } });
    const { wrapper, server } = await setup({
      'GET /api/client/apikey/item': () => ({ json: { client: { list: [client] }, apikey: { list: [key('k1', 1), key('k2', 0)] } } }),
      'GET /api/integration/apikey/item': () => ({ json: { client: { list: [client] }, apikey: { list: [] } } }),
    });
    const keys = renderHook(() => useApiKeys('c1'), { wrapper });
    await waitFor(() => expect(keys.result.current.data?.keys.map((k) => k.clue)).toEqual(['k1']));
    const integrations = renderHook(() => useIntegrations('c1'), { wrapper });
    await waitFor(() => expect(integrations.result.current.data?.keys).toEqual([]));
    const create = (token: string) => integrations.result.current.create({ name: 'OpenAI key', service: 'OpenAI', token });
    expect(await create('')).toBe('Token must be between 1 and 10,000 characters long');
    expect(await create('t'.repeat(10_001))).toBe('Token must be between 1 and 10,000 characters long');
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });
});

describe('useRuns', () => {
  it('notifies "Failed to load requests" when the list fails', async () => {
    const { wrapper, notes } = await setup({ 'GET /api/run/item': () => ({ status: 500, json: { error: { code: 'internal', message: 'down' } } }) });
    const { result } = renderHook(() => useRuns('c1', 'b1'), { wrapper });
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect(notes).toEqual([['Failed to load requests', 'error']]);
  });
});

describe('useUploads', () => {
  it('uploads through the pipeline, reports progress, notifies each file and reloads the list', async () => {
    const bytes = new TextEncoder().encode('[[1,2,3,4]]');
    let listed = 0;
    const { wrapper, notes, server } = await setup({
      'GET /api/rend/item': () => ({ json: { bucket: make.bucket({ stamp: 'b1' }), rend: { list: listed++ ? [make.rend({ stamp: 'r1', name: 'a.json (+1 more)' })] : [] } } }),
      'PUT /api/rend/item': () => ({ json: { rend: make.rend({ stamp: 'r1' }) } }),
      'PUT /api/upload/item': (req) => {
        const b = req.body as { name: string; file: { checksum: string } };
        expect(b.file.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
        return { json: { upload: { ...make.item({ stamp: `u-${b.name}` }), url: `/api/storage/u-${b.name}` } } };
      },
      'PUT /api/storage/*': (req) => (req.raw.length === bytes.length ? { json: {} } : { status: 400, json: { error: { code: 'invalid_input', message: 'size' } } }),
      'POST /api/upload/finish': () => ({ json: { upload: make.item() } }),
      'POST /api/rend/finish': () => ({ json: { rend: make.rend({ stamp: 'r1' }) } }),
    });
    const source = (name: string) => ({ name, size: bytes.length, stream: () => new Blob([bytes]).stream() });
    const { result } = renderHook(() => useUploads('c1', 'b1'), { wrapper });
    await waitFor(() => expect(result.current.data?.uploads).toEqual([]));
    const progress: UploadProgress[] = [];
    let outcome: string | null = 'unset';
    await act(async () => void (outcome = await result.current.upload([source('a.json'), source('b.json')], { onProgress: (p) => progress.push(p) })));
    expect(outcome).toBeNull();
    expect(notes).toEqual([
      ['Uploading a.json completed successfully!', 'uploadSuccess'],
      ['Uploading b.json completed successfully!', 'uploadSuccess'],
    ]);
    expect(progress.filter((p) => p.loaded === p.total).map((p) => p.file)).toEqual(['a.json', 'b.json']);
    expect(result.current.data?.uploads.map((u) => u.stamp)).toEqual(['r1']);
    expect(result.current.uploading).toBe(false);
    expect(server.requests.filter((r) => r.path.startsWith('/api/storage/'))).toHaveLength(2);
  });

  it('shows "Failed to upload files." when the group cannot be created', async () => {
    const { wrapper, notes } = await setup({
      'GET /api/rend/item': () => ({ json: { rend: { list: [] } } }),
      'PUT /api/rend/item': () => ({ status: 403, json: { error: { code: 'forbidden', message: 'no' } } }),
    });
    const { result } = renderHook(() => useUploads('c1', 'b1'), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    let outcome: string | null = null;
    await act(async () => void (outcome = await result.current.upload([{ name: 'a.json', size: 1, stream: () => new Blob(['x']).stream() }])));
    expect(outcome).toBe('Failed to upload files.');
    expect(notes).toEqual([['Failed to upload files.', 'error']]);
  });
});

describe('useFitRequest', () => {
  it('applies the plan limits, requires a Ready upload and returns the generate run', async () => {
    const ready = make.rend({ stamp: 'r1', flight: 'Ready' });
    const run = (stamp: string, fn: string) => ({ run: { stamp, name: 'F', desc: '', function: fn, state: 'Pending', message: '', createdAt: 1, rend: null } });
    const { wrapper } = await setup({
      'GET /api/user/permission': () => ({ json: [{ client, createdAt: 1 }] }),
      'GET /api/rend/item': () => ({ json: { rend: { list: [ready, make.rend({ stamp: 'r2', flight: 'Processing' })] } } }),
      'PUT /api/pile/item': (req) => ({ json: { pile: { stamp: 'p1', variety: 'FitModel', param: (req.body as { param: object }).param, createdAt: 1 } } }),
      'PUT /api/run/item/generate': (req) => ((req.body as { function: string }).function === 'fit' ? { json: run('fit1', 'fit') } : { json: run('gen1', 'generate') }),
    });
    const { result } = renderHook(() => useFitRequest('c1', 'b1'), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.plan).toBe('Individual');
    expect(result.current.readyUploads.map((r) => r.stamp)).toEqual(['r1']);
    const base = { name: 'Fit', inputs: 3, outputs: 5, target: 1, explainability: false, upload: 'r1', task: 'regression' as const };
    const tooMany = await result.current.submit({ ...base, inputs: 4 });
    expect(tooMany).toEqual({ error: 'Individual plans are limited to 3 input features', fieldErrors: { inputs: 'Individual plans are limited to 3 input features' } });
    expect(await result.current.submit({ ...base, upload: 'r2' })).toMatchObject({ error: 'Selected upload not found' });
    expect(await result.current.submit({ ...base, upload: '' })).toMatchObject({ error: 'Please select an upload for this request' });
    expect(await result.current.submit(base)).toEqual({ runId: 'gen1' });
  });
});

describe('models, quotes and billing', () => {
  it('loads general and own models together and renames an own model', async () => {
    const model = (stamp: string) => ({ stamp, name: stamp, desc: '', state: 'Finished', message: '', createdAt: 1, rend: null });
    const { wrapper, server } = await setup({
      'GET /api/client/model/item': () => ({ json: { client, bucket: make.bucket({ stamp: 'b1' }), model: { list: [model('own1')] } } }),
      'GET /api/general/model/item': () => ({ json: { model: { list: [model('gen1'), model('gen2')] } } }),
      'POST /api/client/model/name': () => ({ json: { model: model('own1') } }),
    });
    const { result } = renderHook(() => useModels('c1', 'b1'), { wrapper });
    await waitFor(() => expect(result.current.data?.general.map((m) => m.stamp)).toEqual(['gen1', 'gen2']));
    expect(result.current.data?.own.map((m) => m.stamp)).toEqual(['own1']);
    expect(await result.current.rename('own1', ' New name ')).toBeNull();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ model: 'own1', name: 'New name' });
  });

  it('shows "Failed to load quote data." when the quote cannot be read, and billing when it can', async () => {
    const { wrapper, notes } = await setup({
      'GET /api/quote/status': () => ({ status: 404, json: { error: { code: 'not_found', message: 'Quote not found' } } }),
      'GET /api/client/billing/status': () => ({ json: { billing: { creditBalance: '2', creditConsumed: '0', accountCentBalance: 150, portalUrl: 'http://pay' } } }),
    });
    const quote = renderHook(() => useQuoteDetails('c1', 'b1', 'q1'), { wrapper });
    await waitFor(() => expect(quote.result.current.error?.display).toBe('Failed to load quote data.'));
    expect(notes).toEqual([['Failed to load quote data.', 'error']]);
    const billing = renderHook(() => useBilling('c1'), { wrapper });
    await waitFor(() => expect(billing.result.current.data?.accountCentBalance).toBe(150));
  });
});
