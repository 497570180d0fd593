// Delimited numeric text tables (.txt): comma, tab, semicolon or space separated, with an optional header
// line of names and `#` comment lines. Cells are checked in place, without splitting lines into arrays.
import type { Found } from './found';

const fmt = (n: number) => n.toLocaleString('en-US');
const SPECIAL = /^[+-]?(?:nan|inf|infinity)$/i;

/** Whether s[a, b) is a decimal number (sign, digits, optional fraction and exponent) or nan/inf. */
function isNumber(s: string, a: number, b: number): boolean {
  let i = a;
  let c = s.charCodeAt(i);
  if (c === 43 || c === 45) c = s.charCodeAt(++i);
  let digits = 0;
  while (i < b && c >= 48 && c <= 57) {
    digits++;
    c = s.charCodeAt(++i);
  }
  if (i < b && c === 46) {
    c = s.charCodeAt(++i);
    while (i < b && c >= 48 && c <= 57) {
      digits++;
      c = s.charCodeAt(++i);
    }
  }
  if (digits === 0) return b - a <= 9 && SPECIAL.test(s.slice(a, b));
  if (i < b && (c === 101 || c === 69)) {
    c = s.charCodeAt(++i);
    if (c === 43 || c === 45) c = s.charCodeAt(++i);
    let e = 0;
    while (i < b && c >= 48 && c <= 57) {
      e++;
      c = s.charCodeAt(++i);
    }
    if (e === 0) return false;
  }
  return i === b;
}

const isSpace = (c: number) => c === 32 || c === 9;

export function readText(buf: Uint8Array): Found {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return { ok: false, error: 'The file is not UTF-8 text; a .txt upload must be a table of numbers.' };
  }
  let rows = 0;
  let cols = -1;
  let header = false;
  let delim = -1; // a character code, or 0 for runs of spaces and tabs
  let lineNo = 0;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos <= text.length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    lineNo++;
    let a = pos,
      b = end;
    pos = end + 1;
    if (b > a && text.charCodeAt(b - 1) === 13) b--;
    while (a < b && isSpace(text.charCodeAt(a))) a++;
    while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
    if (a === b || text.charCodeAt(a) === 35) continue;
    if (delim < 0) {
      // The delimiter is decided once, from the first line with content, so a stray comma later is an error.
      const line = text.slice(a, b);
      delim = line.includes(',') ? 44 : line.includes('\t') ? 9 : line.includes(';') ? 59 : 0;
    }
    let n = 0;
    let bad = -1;
    let badStart = 0,
      badEnd = 0;
    let i = a;
    for (;;) {
      let cellEnd: number;
      let next: number;
      if (delim === 0) {
        cellEnd = i;
        while (cellEnd < b && !isSpace(text.charCodeAt(cellEnd))) cellEnd++;
        next = cellEnd;
        while (next < b && isSpace(text.charCodeAt(next))) next++;
      } else {
        cellEnd = text.indexOf(String.fromCharCode(delim), i);
        if (cellEnd < 0 || cellEnd > b) cellEnd = b;
        next = cellEnd + 1;
      }
      let ca = i,
        cb = cellEnd;
      while (ca < cb && isSpace(text.charCodeAt(ca))) ca++;
      while (cb > ca && isSpace(text.charCodeAt(cb - 1))) cb--;
      if (bad < 0 && !isNumber(text, ca, cb)) {
        bad = n;
        badStart = ca;
        badEnd = cb;
      }
      n++;
      if (cellEnd >= b) break;
      i = next;
      if (delim === 0 && i >= b) break;
    }
    if (rows === 0 && !header && bad >= 0 && cols < 0) {
      header = true;
      cols = n;
      continue;
    }
    if (bad >= 0) {
      const cell = text.slice(badStart, badEnd);
      return {
        ok: false,
        error:
          cell === ''
            ? `Line ${fmt(lineNo)} has an empty value in column ${fmt(bad + 1)}.`
            : `Line ${fmt(lineNo)} has ${JSON.stringify(cell.slice(0, 30))} in column ${fmt(bad + 1)}; every value must be a number.`,
      };
    }
    if (cols < 0) cols = n;
    else if (n !== cols) {
      return {
        ok: false,
        error: `Line ${fmt(lineNo)} has ${fmt(n)} value${n === 1 ? '' : 's'}; expected ${fmt(cols)}${header && rows === 0 ? ' (as many as the header names)' : ''}.`,
      };
    }
    rows++;
  }
  if (rows === 0) return { ok: false, error: 'The file holds no rows of data.' };
  return { ok: true, rows, cols, inputs: rows * cols };
}
