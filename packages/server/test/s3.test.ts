// STORAGE_URL: uploads go straight to an S3-compatible bucket (s3rver) through pre-signed URLs, checked before use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { call, finalRun, fitData, fitThroughApi, generateThroughApi, sha256, signup, startServer, uploadFiles, waitFor } from './harness';
import type { TestServer } from './harness';
import { parseStorageUrl } from '../src/storage/s3';

describe('S3-compatible storage', () => {
  let s3: S3rver;
  let s3dir: string;
  let srv: TestServer;
  let endpoint: string;

  beforeAll(async () => {
    s3dir = await mkdtemp(join(tmpdir(), 'portal-s3rver-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir });
    const addr = await s3.run();
    endpoint = `http://127.0.0.1:${addr.port}`;
    const storageUrl = `s3://portal-test-files?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`;
    srv = await startServer('embedded', { storageUrl });
  });
  afterAll(async () => {
    await srv?.close();
    await s3?.close();
    await rm(s3dir, { recursive: true, force: true });
  });

  it('parses the documented STORAGE_URL format and refuses others', () => {
    expect(parseStorageUrl('s3://files?endpoint=http://h:9000&region=eu-west-1&forcePathStyle=true')).toMatchObject({
      bucket: 'files',
      endpoint: 'http://h:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
    });
    expect(() => parseStorageUrl('http://files')).toThrow(/s3:\/\//);
  });

  it('upload, analysis, fit and generate with the bytes in the bucket; download by a pre-signed URL', async () => {
    const A = await signup(srv.url, 's3user');
    const project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'S3' } })).body.bucket.stamp;
    const data = fitData(25, 2);
    const { upload } = await uploadFiles(srv.url, A.token, project, [{ name: 'train.json', bytes: data }]);
    expect(upload.flight).toBe('Ready');
    expect(upload.upload.list[0].meta).toMatchObject({ proc: 1, rows: 25 });

    const fit = (await fitThroughApi(srv.url, A.token, { project, upload: upload.stamp, name: 'fit' }, { inputs: 2, outputs: 3 })).stamp;
    const gen = (await generateThroughApi(srv.url, A.token, { project, upload: upload.stamp, fit, name: 'gen' })).stamp;
    const run = await finalRun(srv.url, A.token, gen);
    expect(run.record.state).toBe('Finished');
    expect(run.url).toContain(endpoint);
    const res = await fetch(run.url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/ensemble_result_/);
  });

  it('bytes that differ from the registered checksum fail the item with a readable error', async () => {
    const A = await signup(srv.url, 's3bad');
    const project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'S3' } })).body.bucket.stamp;
    const upload = (await call(srv.url, 'rendCreate', { token: A.token, body: { bucket: project, name: 'bad' } })).body.rend.stamp;
    const good = Buffer.from('[[1,2,3]]');
    const reg = await call(srv.url, 'uploadRegister', {
      token: A.token,
      body: { rend: upload, name: 'a.json', file: { name: 'a.json', size: good.length, checksum: sha256(good) } },
    });
    expect(reg.body.upload.url).toContain(endpoint);
    const put = await fetch(reg.body.upload.url, { method: 'PUT', body: new Uint8Array(Buffer.from('[[9,9,9]]')) });
    expect(put.ok).toBe(true);
    // Finishing copies the bytes out of the URL's reach and checks the copy: wrong bytes fail the item there and then.
    const fin = await call(srv.url, 'uploadFinish', { token: A.token, body: { upload: reg.body.upload.stamp } });
    expect(fin.status).toBe(400);
    expect(fin.body.error.message).toMatch(/SHA-256 checksum differs/);
    await call(srv.url, 'rendFinish', { token: A.token, body: { rend: upload } });
    const settled = await waitFor(async () => {
      const r = (await call(srv.url, 'rendList', { token: A.token, query: { bucket: project } })).body.rend.list[0];
      return r.flight !== 'Processing' ? r : null;
    });
    expect(settled.flight).toBe('Failed');
    expect(settled.upload.list[0]).toMatchObject({ state: 'Failed', error: expect.stringMatching(/checksum/) });
  });

  it('the CSP lets the browser send bytes to the bucket', async () => {
    const res = await fetch(new URL('/api/health', srv.url));
    expect(res.headers.get('content-security-policy')).toContain(`connect-src 'self' ${endpoint}`);
  });
});
