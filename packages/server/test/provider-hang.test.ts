// A language-model service that hangs or answers garbage, on the real server and worker against a local stub that
// never answers: each call ends at its own timeout, waits between retries hold no worker slot, so three hanging text
// requests do not hold up another client's ordinary fit; the failure names the service, not the data file; the
// service's HTML and escapes reach the run's message as a plain sentence; every call is counted in the metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFinalState, OPENAI_TEXT_MODEL_ID } from '@portal/core';
import { startOpenAiStub, STUB_OPENAI_KEY, type OpenAiStub } from '@portal/testkit/openai';
import { call, dbKinds, fitData, signup, startServer, uploadFiles, waitFor, type TestServer } from './harness';

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const HUNG =
  "OpenAI's embeddings service failed 4 times in a row on call 1 of 1 (last: no answer within 0.5 s), so no result was written: try again later.";

/** A client with a project, an OpenAI key and a text upload. */
async function textClient(srv: TestServer, label: string) {
  const U = await signup(srv.url, label);
  const project = (await call(srv.url, 'bucketCreate', { token: U.token, body: { client: U.client, name: 'Texts' } })).body.bucket.stamp;
  const key = await call(srv.url, 'integrationCreate', {
    token: U.token,
    body: { client: U.client, name: 'Production key', service: 'OpenAI', token: STUB_OPENAI_KEY },
  });
  expect(key.status).toBe(200);
  const upload = (await uploadFiles(srv.url, U.token, project, [{ name: 'texts.json', bytes: json(['one', 'two']) }])).upload.stamp;
  const generate = async () => {
    const r = await call(srv.url, 'runCreate', {
      token: U.token,
      body: { bucket: project, function: 'generate', rend: upload, fit: OPENAI_TEXT_MODEL_ID, name: 'Texts' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.run.stamp as string;
  };
  return { U, project, generate };
}

const runOf = async (srv: TestServer, token: string, run: string) =>
  (await call(srv.url, 'runStatus', { token, query: { run } })).body.run as { record: { state: string; message: string } };

const settled = (srv: TestServer, token: string, run: string, ms = 60_000) =>
  waitFor(async () => {
    const r = await runOf(srv, token, run);
    return isFinalState(r.record.state) && r;
  }, ms);

for (const kind of await dbKinds()) {
  describe(`a hanging embeddings service (${kind})`, () => {
    let srv: TestServer;
    let stub: OpenAiStub;

    beforeAll(async () => {
      stub = await startOpenAiStub();
      // One slot (and the newcomers' one): without yielding, three hanging requests would hold both.
      srv = await startServer(kind, { openaiBaseUrl: stub.baseUrl, openaiTimeoutS: 0.5, workerSlots: 1 });
    }, 60_000);
    afterAll(async () => {
      await srv?.close();
      await stub?.close();
    });

    it('three hanging text requests do not hold up another client’s fit; each ends at its timeouts with the right sentence', async () => {
      stub.hang(100);
      const hanging = await Promise.all(
        ['hang-a', 'hang-b', 'hang-c'].map(async (label) => {
          const c = await textClient(srv, label);
          return { token: c.U.token, run: await c.generate() };
        }),
      );
      // Wait until every slot has met the service once, so the fit below really arrives behind them.
      await waitFor(async () => stub.calls.length >= 2, 20_000);

      const V = await signup(srv.url, 'fitter');
      const project = (await call(srv.url, 'bucketCreate', { token: V.token, body: { client: V.client, name: 'Fit' } })).body.bucket.stamp;
      const { upload } = await uploadFiles(srv.url, V.token, project, [{ name: 'train.json', bytes: fitData(40, 3) }]);
      const param = { explainability: false, input_column_size: 3, output_column_size: 4, task_target_size: 1, task: 'regression' };
      const pile = (await call(srv.url, 'pileCreate', { token: V.token, body: { bucket: project, variety: 'FitModel', param } })).body.pile
        .stamp;
      const started = Date.now();
      const fit = await call(srv.url, 'runCreate', {
        token: V.token,
        body: { bucket: project, function: 'fit', rend: upload.stamp, pile, name: 'Ordinary fit' },
      });
      expect(fit.status).toBe(200);
      const done = await settled(srv, V.token, fit.body.run.stamp as string);
      const fitMs = Date.now() - started;
      expect(done.record.state).toBe('Finished');
      // The hanging requests were still retrying when the fit finished: it did not wait for them.
      const still = await Promise.all(hanging.map((h) => runOf(srv, h.token, h.run)));
      expect(still.some((r) => !isFinalState(r.record.state))).toBe(true);
      expect(fitMs).toBeLessThan(8000);

      // Each hanging request ends after its four calls timed out (0.5 s each, 1 + 2 + 4 s of waits), not at the
      // request's 300 s limit, and its sentence names the service.
      for (const h of hanging) {
        const r = await settled(srv, h.token, h.run, 45_000);
        expect(r.record).toMatchObject({ state: 'Failed', message: HUNG });
      }
      expect(stub.calls.filter((c) => c.status === 0)).toHaveLength(12);

      const metrics = await (await fetch(srv.metricsUrl!)).text();
      expect(metrics).toMatch(/portal_embedding_calls_total\{outcome="timeout"\} 12/);
      expect(metrics).toMatch(/portal_embedding_call_duration_seconds_count 12/);
      // Waiting is not a crash: the jobs gave their slots back in between and were claimed again.
      expect(metrics).toMatch(/portal_jobs_total\{kind="generate",outcome="waiting"\} 9/);
    }, 90_000);

    it('a service’s HTML error page reaches the run’s message as a plain sentence', async () => {
      stub.reset();
      stub.rawError(
        1,
        400,
        '<html><head><title>400 Bad Request &amp; \\u001b[31mno\u001b]0;evil\u0007 &#x202e;gateway</title></head><body><script>alert(1)</script></body></html>',
      );
      const c = await textClient(srv, 'html');
      const r = await settled(srv, c.U.token, await c.generate());
      expect(r.record).toMatchObject({
        state: 'Failed',
        message: 'OpenAI refused the request (400): 400 Bad Request & [31mno ]0;evil gateway.',
      });
      // eslint-disable-next-line no-control-regex -- no control character may remain
      expect(r.record.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e<>]/);
    }, 30_000);
  });
}

describe('a text request that reaches its time limit', () => {
  let srv: TestServer;
  let stub: OpenAiStub;
  beforeAll(async () => {
    stub = await startOpenAiStub();
    srv = await startServer('embedded', {
      openaiBaseUrl: stub.baseUrl,
      openaiTimeoutS: 30,
      jobTimeoutS: { analyze: 60, fit: 600, generate: 1, shrink: 60 },
    });
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
    await stub?.close();
  });

  it('fails saying the service answered too slowly, not that the data file is too large', async () => {
    stub.hang(1);
    const c = await textClient(srv, 'slow');
    const r = await settled(srv, c.U.token, await c.generate(), 20_000);
    expect(r.record).toMatchObject({
      state: 'Failed',
      message:
        "OpenAI's embeddings service answered too slowly: the request took longer than 1 s, the limit for one request, so no result was written. Try again later.",
    });
  }, 30_000);
});
