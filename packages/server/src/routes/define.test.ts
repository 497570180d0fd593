// The contract's schemas through the zod type provider's validator, and the serializer: SPEC's 400 sentences, and
// answers checked in tests.
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { contractSerializer, contractValidator, nulField, refusedInput } from './define';

const route = (schema: (typeof CALLS)[keyof typeof CALLS]['response']) => ({ schema, url: '/api/x', method: 'GET' as const });

describe('contract compilers', () => {
  it("refuses a body with the server's sentence and hands on the parsed value", () => {
    const validate = contractValidator({ schema: CALLS.bucketCreate.body, method: 'PUT', url: CALLS.bucketCreate.path, httpPart: 'body' });
    // Fastify hands the validator's issues to the error handler as the error's `validation`.
    const refused = validate({ client: 'c_1', name: '' }) as { error: unknown[] };
    expect(refusedInput(Object.assign(new Error('body/name'), { validation: refused.error }))).toMatchObject({
      statusCode: 400,
      message: MESSAGES.titleCreate,
    });
    const missing = validate(undefined) as { error: unknown[] };
    expect(refusedInput(Object.assign(new Error('body'), { validation: missing.error }))?.message).toMatch(/^client: /);
    expect(refusedInput(new Error('not a validation'))).toBeNull();
    expect(validate({ client: 'c_1', name: '  Churn  ' })).toEqual({ value: { client: 'c_1', name: 'Churn' } });
  });

  it('fails an answer that does not match its call under checkAnswers, and writes it as JSON otherwise', () => {
    const wrong = { bucket: { stamp: 'b_1' } };
    expect(() => contractSerializer(true)(route(CALLS.bucketCreate.response))(wrong)).toThrow(/does not match the contract/);
    expect(contractSerializer(false)(route(CALLS.bucketCreate.response))(wrong)).toBe(JSON.stringify(wrong));
    const ok = { ok: true };
    expect(contractSerializer(true)(route(CALLS.logout.response))(ok)).toBe('{"ok":true}');
  });

  it('names the first string holding a NUL character by its path, and nothing when there is none', () => {
    expect(nulField({ client: 'c_1', names: ['a', { deep: 'b\0c' }] })).toBe('names.1.deep');
    expect(nulField(['x', 'y\0'])).toBe('1');
    expect(nulField('bare\0')).toBe('input');
    expect(nulField({ client: 'c_1', limit: 50, names: ['a', { deep: 'b' }], none: null })).toBeNull();
    expect(nulField(undefined)).toBeNull();
  });
});
