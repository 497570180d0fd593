import { describe, expect, it } from 'vitest';
import { sameAnswer, VOLATILE_FIELDS } from './poller';

describe('sameAnswer', () => {
  it('leaves volatile fields out: a billing answer with only a freshly signed portalUrl is no change', () => {
    const billing = (sig: string, credit = '1') => ({ creditBalance: credit, accountCentBalance: 0, portalUrl: `/pay/c?sig=${sig}` });
    expect(sameAnswer([[], billing('a')], [[], billing('b')], VOLATILE_FIELDS)).toBe(true);
    expect(sameAnswer([[], billing('b')], [[], billing('c', '2')], VOLATILE_FIELDS)).toBe(false);
    expect(sameAnswer([[], billing('a')], [[], billing('b')])).toBe(false);
  });
});
