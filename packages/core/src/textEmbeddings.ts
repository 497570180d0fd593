// Text embeddings through the client's own OpenAI integration key: the general model's id, the provider's model and
// limits, and the sentences a request ends with when it cannot embed, shared by the server, the doors and the tests.
import { formatCount } from './format';

/** The general model that embeds texts with the client's newest active OpenAI integration key. */
export const OPENAI_TEXT_MODEL_ID = 'general-openai-text-embedding-3-small';
/** The provider's model every call names. */
export const OPENAI_EMBEDDING_MODEL = 'text-embedding-3-small';
/** The width a request gets when it does not ask for one: the model's own full size. */
export const OPENAI_DEFAULT_DIMENSIONS = 1536;
/** text-embedding-3-small shortens its vectors to any width from 1 to its full size. */
export const OPENAI_MAX_DIMENSIONS = 1536;
/** The provider's cap on one text (tokens); the analysis refuses texts that cannot fit, by characters. */
export const OPENAI_MAX_TEXT_CHARS = 32_768;
/** The operator's default provider base URL (OPENAI_BASE_URL). */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Whether a general model embeds texts through an OpenAI key (rather than rows of numbers). */
export const isTextEmbeddingModel = (id: string): boolean => id.startsWith('general-openai-');

export const TEXT_EMBEDDING_MESSAGES = {
  noKey: 'Add an OpenAI integration key on Integrations to use this model.',
  keyRefused: (name: string, status: number) => `OpenAI refused the key '${name}' (${status}): check or replace it on Integrations.`,
  notText:
    'The OpenAI text embeddings model embeds texts: choose an upload whose .json file is a list of strings, e.g. ["first text", "second text"].',
  textUpload:
    'This upload holds texts (a list of strings): embed it with the OpenAI text embeddings general model; training and the other models need rows of numbers.',
  dimensions: `Dimensions must be a whole number from 1 to ${formatCount(OPENAI_MAX_DIMENSIONS)}.`,
} as const;

/** A requested width (as typed, or a number): null when usable, else the sentence to show. */
export function checkDimensions(value: string | number): string | null {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= OPENAI_MAX_DIMENSIONS ? null : TEXT_EMBEDDING_MESSAGES.dimensions;
}

/**
 * Whether a model cannot be picked yet: it embeds through an OpenAI key and the client has no active one (the form
 * says TEXT_EMBEDDING_MESSAGES.noKey and links to Integrations). Unknown keys (still loading) do not block.
 */
export function modelNeedsKey(modelId: string, keys: ReadonlyArray<{ service: string; active: number }> | undefined): boolean {
  return isTextEmbeddingModel(modelId) && !!keys && !keys.some((k) => k.service === 'OpenAI' && k.active === 1);
}
