// `portal generate` with the OpenAI text embeddings model, against the real server and worker and a stub of OpenAI's
// embeddings endpoint: a pushed list of strings, the key that does the work, its counters in `integrations list`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_TEXT_MODEL_ID, TEXT_EMBEDDING_MESSAGES } from '@portal/core';
import { seedProject, withTestApi } from '@portal/testkit/api';
import { startOpenAiStub, stubVector, STUB_OPENAI_KEY } from '@portal/testkit/openai';
import { portal, signedIn } from '../../test/cli';
import type { memoryStore } from '../store';

const stub = await startOpenAiStub();
afterAll(() => stub.close());
const server = withTestApi({ server: { openaiBaseUrl: stub.baseUrl } });
let store: ReturnType<typeof memoryStore>;
let dir: string;
beforeEach(async () => {
  stub.reset();
  store = signedIn(server);
  dir = await mkdtemp(join(tmpdir(), 'portal-cli-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const TEXTS = ['first text', 'second text'];

describe('portal generate with OpenAI text embeddings', { timeout: 60_000 }, () => {
  it('embeds a pushed list of strings with the newest OpenAI key and shows the key’s runs and last ran', async () => {
    await seedProject(server);
    await writeFile(join(dir, 'texts.json'), JSON.stringify(TEXTS));
    const push = await portal(['uploads', 'push', 'texts.json', '--wait', '--json'], { store, cwd: dir });
    expect(push.code, push.stderr).toBe(0);
    const upload = JSON.parse(push.stdout);
    expect(upload.upload.list[0].meta).toMatchObject({ rows: 2, cols: 1, inputs: 2 });
    expect((await portal(['models', 'list', '--general'], { store })).stdout).toContain('OpenAI text embeddings');

    const none = await portal(['generate', '--model', OPENAI_TEXT_MODEL_ID, '--upload', upload.stamp, '--wait'], { store });
    expect(none.code).toBe(1);
    expect(none.stdout + none.stderr).toContain(TEXT_EMBEDDING_MESSAGES.noKey);

    const key = await portal(['integrations', 'create', '--name', 'Production key', '--token-stdin', '--json'], {
      store,
      stdin: `${STUB_OPENAI_KEY}\n`,
    });
    expect(key.code, key.stderr).toBe(0);
    const made = await portal(
      ['generate', '--model', OPENAI_TEXT_MODEL_ID, '--upload', upload.stamp, '--dimensions', '6', '--wait', '--json'],
      { store },
    );
    expect(made.code, made.stderr).toBe(0);
    const run = JSON.parse(made.stdout).run;
    expect(run.record.state).toBe('Finished');
    expect((await (await fetch(run.url)).json()).embeddings).toEqual(TEXTS.map((t) => stubVector(t, 6)));
    const logs = await portal(['runs', 'logs', run.record.stamp], { store });
    expect(logs.stdout).toContain(
      "Sending 2 texts to OpenAI text-embedding-3-small (6 dimensions) with the key 'Production key' in 1 call.",
    );

    const [listed] = JSON.parse((await portal(['integrations', 'list', '--json'], { store })).stdout);
    expect(listed).toMatchObject({ name: 'Production key', runs: 1 });
    expect(listed.runAt).toBeGreaterThan(0);
    const table = (await portal(['integrations', 'list'], { store })).stdout;
    expect(table).toMatch(/^Production key\t.*\t1\t\S/m);
  });

  it('a refused key, and a width out of range, end in sentences', async () => {
    await seedProject(server);
    await writeFile(join(dir, 'texts.json'), JSON.stringify(TEXTS));
    const upload = JSON.parse((await portal(['uploads', 'push', 'texts.json', '--wait', '--json'], { store, cwd: dir })).stdout);
    await portal(['integrations', 'create', '--name', 'Old key', '--token-stdin'], { store, stdin: 'sk-wrong-0000000000\n' });
    const refused = await portal(['generate', '--model', OPENAI_TEXT_MODEL_ID, '--upload', upload.stamp, '--wait'], { store });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(TEXT_EMBEDDING_MESSAGES.keyRefused('Old key', 401));
    const wide = await portal(['generate', '--model', OPENAI_TEXT_MODEL_ID, '--upload', upload.stamp, '--dimensions', '0'], { store });
    expect(wide.code).toBe(1);
    expect(wide.stderr.trim()).toBe(TEXT_EMBEDDING_MESSAGES.dimensions);
  });
});
