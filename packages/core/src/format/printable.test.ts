import { describe, expect, it } from 'vitest';
import { printable, printableJson } from './printable';

describe('printable', () => {
  it('shows terminal controls as visible escapes', () => {
    expect(printable('Acme\x1b]0;pwned\x07')).toBe('Acme\\x1b]0;pwned\\x07');
    expect(printable('Acme\x1b[2J\x9b31m\x7f')).toBe('Acme\\x1b[2J\\x9b31m\\x7f');
    expect(printable('invoice\u202egpj.exe')).toBe('invoice\\u202egpj.exe');
    expect(printable('a\u2066b\u2069c\u200fd\u061ce\u2028f')).toBe('a\\u2066b\\u2069c\\u200fd\\u061ce\\u2028f');
  });

  it('escapes line breaks in one-line fields, keeps LF (not CR) in messages', () => {
    expect(printable('Acme\r\nBcc: x')).toBe('Acme\\r\\nBcc: x');
    expect(printable('line one\nline two\rfake', { multiline: true })).toBe('line one\nline two\\rfake');
  });

  it('leaves ordinary text alone', () => {
    for (const s of ['Acme Ltd', 'Société Générale', '東京データ', 'Rocket 🚀', 'a\u200db']) expect(printable(s)).toBe(s);
  });

  it('JSON for a terminal stays the same JSON value', () => {
    const value = { name: 'x\x1b[2J\x9b\u202e\u2028', list: [1, 'two'] };
    const text = printableJson(value, 2);
    expect(JSON.parse(text)).toEqual(value);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\x1b\x7f-\x9f\u202e\u2028]/);
    expect(text).toContain('\n  "list"');
  });
});
