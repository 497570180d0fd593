// The terminal UI puts an OpenAI key to work: a request with the OpenAI text embeddings model on a text upload, made
// from the create-request screen, runs through a stub of OpenAI's embeddings endpoint, and the Integrations screen
// then shows the key's run count and last ran time.
import { afterAll, describe, expect, it } from 'vitest';
import { rows, seedEmptyProject, withTestApi } from '@portal/testkit/api';
import { uploadFiles } from '@portal/testkit/harness';
import { seedIntegration } from '@portal/testkit/seed';
import { startOpenAiStub, STUB_OPENAI_KEY } from '@portal/testkit/openai';
import { KEY, renderUi } from '../../test/ui';

const stub = await startOpenAiStub();
afterAll(() => stub.close());
const server = withTestApi({ server: { openaiBaseUrl: stub.baseUrl } });

describe('IntegrationsScreen with a key at work', { timeout: 60_000 }, () => {
  it('a text request made in the UI uses the OpenAI key; its runs and last ran show on Integrations', async () => {
    const project = await seedEmptyProject(server);
    await uploadFiles(server.server.url, server.user.token, project.stamp, [
      { name: 'texts.json', bytes: Buffer.from(JSON.stringify(['first text', 'second text'])) },
    ]);
    const key = await seedIntegration(server, { name: 'Production key', token: STUB_OPENAI_KEY });
    const make = renderUi(server, `/client/${server.user.client}/project/${project.stamp}/create-fit-run`);
    await make.see('Model: Train a new model');
    // Name, the text upload, then down to the Model field: the third general model is OpenAI text embeddings.
    await make.type('Texts', KEY.tab, KEY.enter, ...Array(5).fill(KEY.tab));
    await make.see('Reuse OpenAI text embeddings');
    await make.type(KEY.down, KEY.down, KEY.down, KEY.enter);
    // The model takes a width: its field follows Model, and Enter on the last field submits.
    await make.see('Dimensions (1-1,536, empty: 1,536)');
    await make.type('6', KEY.enter);
    await make.see(/Function:\s+generate/);
    const done = await make.see(/Status:\s+Finished/, 30_000);
    expect(done).toContain("Sending 2 texts to OpenAI text-embedding-3-small (6 dimensions) with the key 'Production key' in 1 call.");
    make.unmount();
    expect(stub.calls.map((c) => [c.texts, c.dimensions])).toEqual([[['first text', 'second text'], 6]]);
    const stored = await rows(server).selectFrom('integrations').select(['runs', 'run_at']).where('clue', '=', key.clue).executeTakeFirst();
    expect(stored?.runs).toBe(1);

    const list = renderUi(server, `/client/${server.user.client}/integrations`);
    const frame = await list.see('Production key');
    // Runs 1, and a last ran time (exact or relative, as the list formats it).
    expect(frame).toMatch(/Production key\s+\S+\s+OpenAI\s+sk-•+\S+\s+1\s+(just now|\d{4}-\d\d-\d\d \d\d:\d\d)/);
    list.unmount();
  });
});
