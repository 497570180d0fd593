import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { isMissing, loadMissing, toApiError } from './loader';

describe('toApiError', () => {
  it('wraps unknown failures in the one error type', () => {
    const e = toApiError(new TypeError('bad'));
    expect([e.status, e.display, e.serverMessage]).toEqual([0, 'An unexpected error occurred. Please try again.', 'bad']);
  });
});

describe('missing', () => {
  const refused = (status: number) => new ApiError(status, 'x', null, 'Failed');
  it('is a refusal that means "not here" (404, 403), or no failure at all, never trouble', () => {
    expect([404, 403].map((s) => isMissing(refused(s)))).toEqual([true, true]);
    expect([0, 400, 409, 500].map((s) => isMissing(refused(s)))).toEqual([false, false, false, false]);
    expect(isMissing(null)).toBe(true);
  });
  it('says a load is missing only when it failed so and holds no data', () => {
    expect(loadMissing(undefined, refused(404))).toBe(true);
    expect(loadMissing(undefined, refused(403))).toBe(true);
    expect(loadMissing(undefined, refused(500))).toBe(false);
    // Still loading, or loaded before the refusal: the screen shows what it has.
    expect(loadMissing(undefined, null)).toBe(false);
    expect(loadMissing({ rows: [] }, refused(404))).toBe(false);
  });
});
