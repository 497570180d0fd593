// Text embeddings through the client's own OpenAI key, on the real server and worker against a stub of OpenAI's
// embeddings endpoint: text uploads, the general model, the key's counters, failures as sentences, retries, secrecy,
// and usage.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isFinalState, OPENAI_EMBEDDING_MODEL, OPENAI_TEXT_MODEL_ID, TEXT_EMBEDDING_MESSAGES, type RunEvent } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { startOpenAiStub, stubVector, STUB_OPENAI_KEY, type OpenAiStub } from '@portal/testkit/openai';
import { call, fitData, signup, startServer, uploadFiles, waitFor, type TestServer } from './harness';

const TEXTS = ['The cat sat on the mat.', 'Ein Hund bellt.', '猫はマットの上に座った。'];
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

describe('text embeddings through the client’s OpenAI key', () => {
  let srv: TestServer;
  let stub: OpenAiStub;
  let U: Awaited<ReturnType<typeof signup>>;
  let project: string;
  let texts: string;

  const settled = (run: string) =>
    waitFor(async () => {
      const r = (await call(srv.url, 'runStatus', { token: U.token, query: { run } })).body.run;
      return isFinalState(r.record.state) && r;
    }, 60_000);
  const generate = async (upload: string, extra: Record<string, unknown> = {}, model = OPENAI_TEXT_MODEL_ID) => {
    const r = await call(srv.url, 'runCreate', {
      token: U.token,
      body: { bucket: project, function: 'generate', rend: upload, fit: model, name: 'Texts', ...extra },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return settled(r.body.run.stamp as string);
  };
  const events = async (run: string): Promise<RunEvent[]> =>
    CALLS.runEvents.response.parse((await call(srv.url, 'runEvents', { token: U.token, query: { run } })).body).event.list;
  const addKey = async (name: string, token: string) => {
    const r = await call(srv.url, 'integrationCreate', { token: U.token, body: { client: U.client, name, service: 'OpenAI', token } });
    expect(r.status).toBe(200);
    return r.body.apikey.clue as string;
  };
  const keys = async () =>
    (await call(srv.url, 'integrationList', { token: U.token, query: { client: U.client } })).body.apikey.list as Array<{
      clue: string;
      runs: number;
      runAt: number | null;
    }>;
  const removeKey = (clue: string) => call(srv.url, 'integrationRemove', { token: U.token, body: { apikey: clue, active: 0 } });

  beforeAll(async () => {
    stub = await startOpenAiStub();
    srv = await startServer('embedded', { openaiBaseUrl: stub.baseUrl, openaiTimeoutS: 0.5, logLevel: 'silent' });
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
    await stub?.close();
  });
  beforeEach(async () => {
    stub.reset();
    U = await signup(srv.url, 'texts');
    project = (await call(srv.url, 'bucketCreate', { token: U.token, body: { client: U.client, name: 'Texts' } })).body.bucket.stamp;
    texts = (await uploadFiles(srv.url, U.token, project, [{ name: 'texts.json', bytes: json(TEXTS) }])).upload.stamp;
  }, 30_000);

  it('a .json list of strings is a text upload: one row per text, one column, texts × 1 input parameters', async () => {
    const list = (await call(srv.url, 'rendList', { token: U.token, query: { bucket: project, active: 1 } })).body.rend.list;
    const upload = list.find((r: { stamp: string }) => r.stamp === texts);
    expect(upload.flight).toBe('Ready');
    expect(upload.upload.list[0].meta).toMatchObject({ proc: 1, rows: 3, cols: 1, inputs: 3 });
  });

  it('the general models list offers OpenAI text embeddings, which says it uses your OpenAI integration key', async () => {
    const models = (await call(srv.url, 'generalModelList', { token: U.token, query: { active: 1 } })).body.model.list;
    const openai = models.find((m: { stamp: string }) => m.stamp === OPENAI_TEXT_MODEL_ID);
    expect(openai).toMatchObject({ name: 'OpenAI text embeddings', state: 'Finished' });
    expect(openai.desc).toContain('it uses your OpenAI integration key');
  });

  it('without an active OpenAI key the request fails saying to add one, and nothing is sent', async () => {
    const run = await generate(texts);
    expect(run.record).toMatchObject({ state: 'Failed', message: TEXT_EMBEDDING_MESSAGES.noKey });
    expect(run.url).toBeNull();
    expect(stub.calls).toEqual([]);
  });

  it('embeds the texts with the newest active key, in order, and counts the run on that key only', async () => {
    const older = await addKey('Older key', 'sk-test-older-key-that-is-not-used');
    const key = await addKey('Production key', STUB_OPENAI_KEY);
    const before = Math.floor(Date.now() / 1000);
    const run = await generate(texts, { dimensions: 8 });
    expect(run.record).toMatchObject({ state: 'Finished', message: '' });
    expect(stub.calls).toHaveLength(1);
    expect(stub.calls[0]).toMatchObject({
      authorization: `Bearer ${STUB_OPENAI_KEY}`,
      model: OPENAI_EMBEDDING_MODEL,
      texts: TEXTS,
      dimensions: 8,
    });
    const result = await (await fetch(run.url)).json();
    expect(result).toMatchObject({ format: 'embeddings', model: OPENAI_TEXT_MODEL_ID, rows: 3, width: 8, inputs: 1, dimensions: 8 });
    expect(result.embeddings).toEqual(TEXTS.map((t) => stubVector(t, 8)));
    const after = await keys();
    expect(after.find((k) => k.clue === key)).toMatchObject({ runs: 1 });
    expect(after.find((k) => k.clue === key)!.runAt).toBeGreaterThanOrEqual(before);
    expect(after.find((k) => k.clue === older)).toMatchObject({ runs: 0, runAt: null });
    const log = await events(run.record.stamp);
    expect(log.map((e) => e.message)).toContain(
      "Sending 3 texts to OpenAI text-embedding-3-small (8 dimensions) with the key 'Production key' in 1 call.",
    );
    expect(log.find((e) => e.message.startsWith('Sent 3 texts in 1 call'))?.data).toMatchObject({ texts: 3, calls: 1 });
    // The request counts its texts like any generate: in usage and in the credit spent.
    const usage = CALLS.clientUsage.response.parse(
      (await call(srv.url, 'clientUsage', { token: U.token, query: { client: U.client, days: 1 } })).body,
    ).usage;
    expect(usage.days.at(-1)).toMatchObject({ generates: 1, parameters: 3 });
  });

  it('the key the provider refuses ends the request Failed, naming the key and the status; its run still counts', async () => {
    await addKey('Working key', STUB_OPENAI_KEY);
    const bad = await addKey('Production key', 'sk-test-wrong-key-0000');
    const run = await generate(texts);
    expect(run.record).toMatchObject({ state: 'Failed', message: TEXT_EMBEDDING_MESSAGES.keyRefused('Production key', 401) });
    expect(run.record.message).toBe("OpenAI refused the key 'Production key' (401): check or replace it on Integrations.");
    expect(run.url).toBeNull();
    expect((await keys()).find((k) => k.clue === bad)).toMatchObject({ runs: 1 });
    // Removing it puts the next newest key to work.
    await removeKey(bad);
    expect((await generate(texts)).record.state).toBe('Finished');
  });

  it('waits out rate limits as Retry-After asks, and retries a slow answer', async () => {
    await addKey('Production key', STUB_OPENAI_KEY);
    stub.rateLimit(2, '1');
    const started = Date.now();
    const run = await generate(texts);
    expect(run.record.state).toBe('Finished');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(stub.calls.map((c) => c.status)).toEqual([429, 429, 200]);
    // No width asked: none sent, and the model answers its full 1,536 values.
    expect(stub.calls[2].dimensions).toBeUndefined();
    const log = (await events(run.record.stamp)).map((e) => e.message);
    expect(log).toContain('OpenAI rate-limited call 1 of 1 (429); waiting 1 s as its Retry-After asks before trying again.');
    expect(log.find((m) => m.startsWith('Sent 3 texts'))).toBe('Sent 3 texts in 3 calls to OpenAI; 3 vectors of 1,536 values written.');

    stub.reset();
    stub.slow(1, 1500);
    const slow = await generate(texts);
    expect(slow.record.state).toBe('Finished');
    expect((await events(slow.record.stamp)).map((e) => e.message)).toContain(
      'Call 1 of 1 failed (no answer within 0.5 s); trying again in 1 s.',
    );
  });

  it('gives up on a service that keeps failing, with a sentence and no result', async () => {
    await addKey('Production key', STUB_OPENAI_KEY);
    stub.serverError(10, 503);
    const run = await generate(texts);
    expect(run.record).toMatchObject({
      state: 'Failed',
      message:
        "OpenAI's embeddings service failed 4 times in a row on call 1 of 1 (last: status 503), so no result was written: try again later.",
    });
    expect(run.url).toBeNull();
    expect(stub.calls).toHaveLength(4);
  }, 30_000);

  it('a batch that fails after others succeeded leaves no half-written result', async () => {
    await addKey('Production key', STUB_OPENAI_KEY);
    const many = Array.from({ length: 400 }, (_, i) => `text number ${i} `.padEnd(1000, 'x'));
    const upload = (await uploadFiles(srv.url, U.token, project, [{ name: 'many.json', bytes: json(many) }])).upload.stamp;
    stub.serverError(4, 500, 1);
    const run = await generate(upload, { dimensions: 4 });
    expect(run.record).toMatchObject({
      state: 'Failed',
      message:
        "OpenAI's embeddings service failed 4 times in a row on call 2 of 2 (last: status 500), so no result was written: try again later.",
    });
    expect(run.url).toBeNull();
    expect(stub.calls.map((c) => c.status)).toEqual([200, 500, 500, 500, 500]);
    const list = (await call(srv.url, 'rendList', { token: U.token, query: { bucket: project, active: 1 } })).body.rend.list;
    expect(list.find((r: { stamp: string }) => r.stamp === upload).box.list).toEqual([]);
  }, 30_000);

  it('a rate limit that asks for too long a wait fails at once, saying so', async () => {
    await addKey('Production key', STUB_OPENAI_KEY);
    stub.rateLimit(1, '3600');
    const run = await generate(texts);
    expect(run.record.message).toBe(
      "OpenAI rate-limited the key 'Production key' and asked to wait 3600 s, longer than a request waits: try again later, or raise the key's limits with OpenAI.",
    );
  });

  it('sends many texts in batches within the provider limits and writes every vector in order', async () => {
    await addKey('Production key', STUB_OPENAI_KEY);
    // 400 texts of 1,000 bytes: the provider's 300,000 tokens a call (a token is at least a byte) make two calls.
    const many = Array.from({ length: 400 }, (_, i) => `text number ${i} `.padEnd(1000, 'x'));
    const upload = (await uploadFiles(srv.url, U.token, project, [{ name: 'many.json', bytes: json(many) }])).upload.stamp;
    const run = await generate(upload, { dimensions: 4 });
    expect(run.record.state).toBe('Finished');
    expect(stub.calls.map((c) => c.texts.length)).toEqual([300, 100]);
    const result = await (await fetch(run.url)).json();
    expect(result.rows).toBe(400);
    expect(result.embeddings).toEqual(many.map((t) => stubVector(t, 4)));
    expect((await events(run.record.stamp)).find((e) => e.message.startsWith('Sending'))?.data).toMatchObject({ texts: 400, calls: 2 });
  }, 60_000);

  it('keeps the token secret: not in events, messages, results, metrics, or lists, and sent only to the operator’s base URL', async () => {
    const secret = `${STUB_OPENAI_KEY}`;
    await addKey('Production key', secret);
    const ok = await generate(texts);
    stub.keys.clear();
    const refused = await generate(texts);
    const seen = [
      JSON.stringify(await events(ok.record.stamp)),
      JSON.stringify(await events(refused.record.stamp)),
      refused.record.message,
      await (await fetch(ok.url)).text(),
      await (await fetch(srv.metricsUrl!)).text(),
      JSON.stringify(await keys()),
      JSON.stringify((await call(srv.url, 'runList', { token: U.token, query: { bucket: project, active: 1 } })).body),
    ].join('\n');
    expect(seen).not.toContain(secret);
    expect(seen).not.toContain(secret.slice(8, 24));
    expect(stub.calls.every((c) => c.authorization === `Bearer ${secret}`)).toBe(true);
  });

  it('says which upload each model needs, and takes a width only for the text model', async () => {
    await addKey('Production key', STUB_OPENAI_KEY);
    const numbers = (await uploadFiles(srv.url, U.token, project, [{ name: 'rows.json', bytes: fitData(20, 3) }])).upload.stamp;
    expect((await generate(numbers)).record.message).toBe(TEXT_EMBEDDING_MESSAGES.notText);
    expect((await generate(texts, {}, 'general-tabular-regression')).record.message).toBe(TEXT_EMBEDDING_MESSAGES.textUpload);
    const wide = await call(srv.url, 'runCreate', {
      token: U.token,
      body: { bucket: project, function: 'generate', rend: numbers, fit: 'general-tabular-regression', name: 'x', dimensions: 8 },
    });
    expect(wide.status).toBe(400);
    const tooWide = await call(srv.url, 'runCreate', {
      token: U.token,
      body: { bucket: project, function: 'generate', rend: texts, fit: OPENAI_TEXT_MODEL_ID, name: 'x', dimensions: 5000 },
    });
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.error.message).toContain(TEXT_EMBEDDING_MESSAGES.dimensions);
    expect(stub.calls).toEqual([]);
  });
});
