// Delimited numeric text tables (.txt): comma, tab or space separated, with an optional header line of names.
import type { Found } from './found';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?(?:nan|inf|infinity)$/i;
const fmt = (n: number) => n.toLocaleString('en-US');

export function readText(buf: Uint8Array): Found {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return { ok: false, error: 'The file is not UTF-8 text; a .txt upload must be a table of numbers.' };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split(/\r?\n/);
  // The delimiter is decided once, from the first line with content, so a stray comma in line 900 is an error.
  const first = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (first < 0) return { ok: false, error: 'The file holds no rows of data.' };
  const sample = lines[first];
  const split: (l: string) => string[] = sample.includes(',') ? (l) => l.split(',').map((s) => s.trim())
    : sample.includes('\t') ? (l) => l.split('\t').map((s) => s.trim())
      : sample.includes(';') ? (l) => l.split(';').map((s) => s.trim())
        : (l) => l.trim().split(/\s+/);
  let cols = -1;
  let rows = 0;
  let header = false;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const cells = split(line);
    const lineNo = i + 1;
    if (i === first && cells.some((c) => !NUMBER.test(c))) {
      header = true;
      cols = cells.length;
      continue;
    }
    const bad = cells.findIndex((c) => !NUMBER.test(c));
    if (bad >= 0) {
      const cell = cells[bad];
      return { ok: false, error: cell === '' ? `Line ${fmt(lineNo)} has an empty value in column ${fmt(bad + 1)}.` : `Line ${fmt(lineNo)} has ${JSON.stringify(cell.slice(0, 30))} in column ${fmt(bad + 1)}; every value must be a number.` };
    }
    if (cols < 0) cols = cells.length;
    else if (cells.length !== cols) {
      return { ok: false, error: `Line ${fmt(lineNo)} has ${fmt(cells.length)} value${cells.length === 1 ? '' : 's'}; expected ${fmt(cols)}${header && rows === 0 ? ' (as many as the header names)' : ''}.` };
    }
    rows++;
  }
  if (rows === 0) return { ok: false, error: 'The file holds no rows of data.' };
  return { ok: true, rows, cols, inputs: rows * cols };
}
