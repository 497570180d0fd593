import { describe, expect, it } from 'vitest';
import { formatShrinkPrice, shrinkConfirmQuestion, shrinkPrice, shrinkPriceOf } from './billing';
import { MESSAGES } from './messages';

const upload = (flight: string, ...inputs: Array<number | null>) => ({
  flight,
  upload: { list: inputs.map((n) => ({ meta: { inputs: n } })) },
});

describe('shrinkPrice', () => {
  it('estimate - free credit = amount due, $0.22 per started million, free credit spent first', () => {
    expect(shrinkPrice(1_500_000, 0)).toEqual({
      inputs: 1_500_000,
      freeInputs: 0,
      estimateCents: 44,
      freeCreditCents: 0,
      amountDueCents: 44,
    });
    expect(shrinkPrice(1_500_000, 1_000_000)).toEqual({
      inputs: 1_500_000,
      freeInputs: 1_000_000,
      estimateCents: 44,
      freeCreditCents: 22,
      amountDueCents: 22,
    });
    // 0.7 million of credit leaves 0.8 million: still one started million due.
    expect(shrinkPrice(1_500_000, 700_000)).toMatchObject({ estimateCents: 44, freeCreditCents: 22, amountDueCents: 22 });
    expect(shrinkPrice(262, 5_000_000)).toMatchObject({ freeInputs: 262, estimateCents: 22, freeCreditCents: 22, amountDueCents: 0 });
    // The server's example: 4,002,000 parameters against 1,000,400 of credit: 4 started millions beyond it.
    expect(shrinkPrice(4_002_000, 1_000_400)).toMatchObject({ estimateCents: 110, freeCreditCents: 22, amountDueCents: 88 });
  });
  it('never prices below zero or from figures that are not counts', () => {
    for (const bad of [0, -5, NaN, Infinity, -Infinity])
      expect(shrinkPrice(bad, 10)).toMatchObject({ inputs: 0, estimateCents: 0, amountDueCents: 0 });
    expect(shrinkPrice(1_000, -3)).toMatchObject({ freeInputs: 0, amountDueCents: 22 });
    expect(shrinkPrice(1_000, NaN)).toMatchObject({ freeInputs: 0, amountDueCents: 22 });
    for (const [n, c] of [
      [1, 0],
      [3_000_000, 1_234_567],
      [999_999_999, 3],
    ]) {
      const p = shrinkPrice(n, c);
      expect(p.estimateCents - p.freeCreditCents).toBe(p.amountDueCents);
    }
  });
});

describe('shrinkPriceOf', () => {
  it('sums the Ready upload’s meta.inputs against billing’s credit balance; null until both are known', () => {
    expect(shrinkPriceOf(upload('Ready', 600_000, 600_000), { creditBalance: '0.2' })).toMatchObject({
      inputs: 1_200_000,
      freeInputs: 200_000,
      amountDueCents: 22,
    });
    expect(shrinkPriceOf(upload('Ready', 262), undefined)).toBeNull();
    expect(shrinkPriceOf(undefined, { creditBalance: '1' })).toBeNull();
    expect(shrinkPriceOf(upload('Processing', null), { creditBalance: '1' })).toBeNull();
  });
});

describe('texts', () => {
  it('the price line and the question', () => {
    const p = shrinkPrice(1_500_000, 1_000_000);
    expect(formatShrinkPrice(p)).toBe('Estimate $0.44 - free credit $0.22 = amount due $0.22');
    expect(shrinkConfirmQuestion(p)).toBe(MESSAGES.shrinkConfirmBilled('$0.22'));
    expect(MESSAGES.shrinkConfirmBilled('$0.22')).toBe(
      'Create this quote? $0.22 will be billed to the account; the request starts once it is paid.',
    );
    expect(shrinkConfirmQuestion(shrinkPrice(10, 100))).toBe(MESSAGES.shrinkConfirmFree);
  });
});
