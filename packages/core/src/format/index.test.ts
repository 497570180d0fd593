import { describe, expect, it } from 'vitest';
import {
  creditToInputs,
  uploadError,
  uploadItemError,
  estimatePriceCents,
  formatCount,
  formatDollars,
  formatSize,
  formatTime,
  freeCredits,
  maskToken,
  priceCents,
  resultFileName,
} from '.';

describe('formatSize: Bytes to YB, base 1024', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 ** 2, '1 MB'],
    [1.25 * 1024 ** 2, '1.25 MB'],
    [1024 ** 3, '1 GB'],
    [1024 ** 4, '1 TB'],
    [1024 ** 5, '1 PB'],
    [1024 ** 6, '1 EB'],
    [1024 ** 7, '1 ZB'],
    [1024 ** 8, '1 YB'],
    [2048 * 1024 ** 8, '2048 YB'],
  ])('%d bytes is %s', (bytes, text) => expect(formatSize(bytes)).toBe(text));
  it('rounds to two decimals', () => expect(formatSize(1000 * 1024 + 123)).toBe('1000.12 KB'));
  it('keeps odd inputs readable', () => {
    expect(formatSize(0.5)).toBe('0.5 Bytes');
    expect(formatSize(-1)).toBe('0 Bytes');
    expect(formatSize(Number.NaN)).toBe('0 Bytes');
  });
});

describe('price: $0.22 per started million input parameters', () => {
  it.each([
    [0, 0, '$0.00'],
    [1, 22, '$0.22'],
    [1_000_000, 22, '$0.22'],
    [1_000_001, 44, '$0.44'],
    [2_000_000, 44, '$0.44'],
  ])('%d inputs cost %d cents (%s)', (inputs, cents, text) => {
    expect(priceCents(inputs)).toBe(cents);
    expect(formatDollars(priceCents(inputs))).toBe(text);
  });
  it('sums meta.inputs over the uploads before rounding up', () => {
    const item = (inputs: number | null) => ({ meta: { inputs } });
    expect(estimatePriceCents([item(600_000), item(400_000), item(null)])).toBe(22);
    expect(estimatePriceCents([item(600_000), item(400_001)])).toBe(44);
  });
});

describe('credits, balances and counts', () => {
  it('reads billing credit strings as millions of input parameters', () => {
    expect(creditToInputs('1.5')).toBe(1_500_000);
    expect(creditToInputs('junk')).toBe(0);
    expect(freeCredits({ creditBalance: '0.75', creditConsumed: '0.25' })).toEqual({ consumed: 250_000, total: 1_000_000, left: 750_000 });
  });
  it('shows cents as dollars', () => {
    expect(formatDollars(1234)).toBe('$12.34');
    expect(formatDollars(-50)).toBe('-$0.50');
  });
  it('groups thousands', () => expect(formatCount(1_000_000)).toBe('1,000,000'));
});

describe('times and names', () => {
  it('shows epoch seconds as local date-time, and "-" when absent', () => {
    const d = new Date(2026, 0, 2, 3, 4, 5);
    expect(formatTime(d.getTime() / 1000)).toBe('2026-01-02 03:04:05');
    expect(formatTime(null)).toBe('-');
  });
  it('names the result file ensemble_result_{date}_{time}.json', () => {
    expect(resultFileName(new Date(2026, 10, 21, 9, 8, 7))).toBe('ensemble_result_2026-11-21_09-08-07.json');
  });
  it('masks tokens in lists', () => {
    expect(maskToken('sk-abcdefghijklmnop')).toBe('sk-••••••••mnop');
    expect(maskToken('short')).toBe('•••••');
  });
});

describe('uploadError', () => {
  const item = (state: string, proc: number | null, error: string | null, metaError: string | null) => ({
    state,
    error,
    meta: { proc, error: metaError },
  });
  it('shows the analysis error of an item with meta.proc 2 first, a Failed item its own first, others none', () => {
    expect(uploadItemError(item('Finished', 2, 'own', 'analysis'))).toBe('analysis');
    expect(uploadItemError(item('Finished', 2, 'own', null))).toBe('own');
    expect(uploadItemError(item('Failed', 0, 'own', 'analysis'))).toBe('own');
    expect(uploadItemError(item('Failed', 0, null, 'analysis'))).toBe('analysis');
    expect(uploadItemError(item('Finished', 1, 'stale', 'stale'))).toBeNull();
    expect(uploadError({ upload: { list: [item('Finished', 1, 'stale', null), item('Failed', 0, 'second', null)] } })).toBe('second');
    expect(uploadError({ upload: { list: [] } })).toBeNull();
  });
});
