import { describe, expect, it } from 'vitest';
import { CALLS } from './contract/table';
import { checkDimensions, isTextEmbeddingModel, OPENAI_TEXT_MODEL_ID, TEXT_EMBEDDING_MESSAGES } from './textEmbeddings';

describe('text embeddings', () => {
  it('a width is a whole number from 1 to 1,536, typed or given', () => {
    expect(checkDimensions('256')).toBeNull();
    expect(checkDimensions(1536)).toBeNull();
    for (const bad of ['0', '1537', '2.5', 'wide', '', -1]) expect(checkDimensions(bad)).toBe(TEXT_EMBEDDING_MESSAGES.dimensions);
  });

  it('the generate call takes a width with the same sentence, and names the model it is for', () => {
    const body = { bucket: 'b', function: 'generate', rend: 'r', fit: OPENAI_TEXT_MODEL_ID, name: 'Texts' };
    expect(CALLS.runCreate.body.safeParse({ ...body, dimensions: 256 }).success).toBe(true);
    expect(CALLS.runCreate.body.safeParse(body).success).toBe(true);
    const wide = CALLS.runCreate.body.safeParse({ ...body, dimensions: 4096 });
    expect(wide.success).toBe(false);
    expect(wide.error?.issues[0].message).toBe(TEXT_EMBEDDING_MESSAGES.dimensions);
    expect(isTextEmbeddingModel(OPENAI_TEXT_MODEL_ID)).toBe(true);
    expect(isTextEmbeddingModel('general-tabular-regression')).toBe(false);
  });

  it('the refusal sentences are the ones users read', () => {
    expect(TEXT_EMBEDDING_MESSAGES.noKey).toBe('Add an OpenAI integration key on Integrations to use this model.');
    expect(TEXT_EMBEDDING_MESSAGES.keyRefused('Production key', 401)).toBe(
      "OpenAI refused the key 'Production key' (401): check or replace it on Integrations.",
    );
  });
});
