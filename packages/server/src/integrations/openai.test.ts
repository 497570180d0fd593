import { describe, expect, it } from 'vitest';
import { redactText } from '../redact';
import { embedTexts, MAX_TEXTS_PER_CALL, planBatches, providerWords, retryAfterMs } from './openai';

describe('batches of texts', () => {
  it('keeps each call within 2,048 texts, 300,000 bytes and about a million values', () => {
    const short = Array.from({ length: 5000 }, () => 'a');
    expect(planBatches(short, 4).map((b) => b.end - b.start)).toEqual([MAX_TEXTS_PER_CALL, MAX_TEXTS_PER_CALL, 904]);
    expect(planBatches(short.slice(0, 1200), 1536).map((b) => b.end - b.start)).toEqual([651, 549]);
    const long = Array.from({ length: 5 }, () => 'é'.repeat(50_000)); // 100,000 bytes each
    expect(planBatches(long, 4).map((b) => [b.start, b.end])).toEqual([
      [0, 3],
      [3, 5],
    ]);
  });
});

describe('keys', () => {
  it('a key that no header can carry is refused before any call, naming the key', async () => {
    const onVectors = async () => {};
    const req = {
      keyName: 'Pasted key',
      texts: ['a'],
      dimensions: 4,
      sendDimensions: false,
      signal: new AbortController().signal,
      onVectors,
    };
    for (const token of ['sk-abc def', 'sk-abc\n', 'sk-é']) {
      await expect(embedTexts({ baseUrl: 'http://127.0.0.1:9/v1', timeoutS: 1 }, { ...req, token })).rejects.toThrow(
        "The key 'Pasted key' holds spaces or characters an OpenAI key cannot have: check or replace it on Integrations.",
      );
    }
  });
});

describe('logs', () => {
  it('an OpenAI key in any logged text is redacted', () => {
    expect(redactText('calling with sk-proj-AbCdEf0123456789_xyz failed')).toBe('calling with sk-[redacted] failed');
  });
});

describe('Retry-After', () => {
  it('reads milliseconds, seconds and an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-11-26T05:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 26 Nov 2026 05:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeNull();
    expect(retryAfterMs(new Headers())).toBeNull();
  });
});

describe('the provider’s words', () => {
  it('are one plain line: a JSON error’s message, or an HTML page’s title, without tags, entities, escapes or controls', () => {
    expect(providerWords('{"error":{"message":"Bad\\u001b[2J input\\n here"}}', '')).toBe('Bad [2J input here');
    expect(providerWords('<html><title>502 Bad Gateway &amp; more</title><body>nginx</body></html>', '')).toBe('502 Bad Gateway & more');
    expect(providerWords('<p>Down <b>for</b> maintenance</p><script>x()</script>', '')).toBe('Down for maintenance');
    expect(providerWords('a\u202eb\u0007c &#x1b;d', '')).toBe('a b c d');
    expect(providerWords('key sk-test-secret-123456 refused', 'sk-test-secret-123456')).toBe('key *** refused');
    expect(providerWords('x'.repeat(500), '')).toHaveLength(200);
  });
});
