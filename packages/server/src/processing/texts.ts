// Text uploads: a .json file that is a list of strings, one text each. Rows are texts and there is one column, so the
// plan's row limit counts texts and a request's input parameters are texts × 1.
import { OPENAI_MAX_TEXT_CHARS, TEXT_EMBEDDING_MESSAGES } from '@portal/core';
import type { Found } from './found';

const fmt = (n: number) => n.toLocaleString('en-US');

/** The first byte after a UTF-8 byte order mark and white space. */
function firstByte(buf: Uint8Array, from = 0): number {
  let p = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf && from === 0 ? 3 : from;
  while (p < buf.length && (buf[p] === 32 || buf[p] === 10 || buf[p] === 13 || buf[p] === 9)) p++;
  return p;
}

/** Whether a .json file is a list of strings (its first item is a string); a table keeps being read as a table. */
export function isTextList(buf: Uint8Array): boolean {
  const open = firstByte(buf);
  if (buf[open] !== 91) return false;
  return buf[firstByte(buf, open + 1)] === 34;
}

const kindOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : typeof v === 'number' ? 'a number' : typeof v;

export type TextsResult = { ok: true; texts: string[] } | { ok: false; error: string };

/** Reads and checks every text of a list of strings (the file is at most the largest plan's size). */
export function readTexts(buf: Uint8Array): TextsResult {
  let value: unknown;
  try {
    value = JSON.parse(
      Buffer.from(buf)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  } catch (err) {
    return { ok: false, error: `The file is not valid JSON (${err instanceof Error ? err.message : 'unreadable'}).` };
  }
  if (!Array.isArray(value)) return { ok: false, error: TEXT_EMBEDDING_MESSAGES.notText };
  for (let i = 0; i < value.length; i++) {
    const t: unknown = value[i];
    if (typeof t !== 'string') {
      return {
        ok: false,
        error: `Item ${fmt(i + 1)} is ${kindOf(t)}, not a text; a text upload is a list of strings, e.g. ["first text", "second text"].`,
      };
    }
    if (t.trim() === '') return { ok: false, error: `Text ${fmt(i + 1)} is empty; every text needs at least one character.` };
    if (t.length > OPENAI_MAX_TEXT_CHARS) {
      return {
        ok: false,
        error: `Text ${fmt(i + 1)} has ${fmt(t.length)} characters; texts of up to ${fmt(OPENAI_MAX_TEXT_CHARS)} characters can be embedded: split it.`,
      };
    }
  }
  if (value.length === 0) return { ok: false, error: 'The file holds no texts.' };
  return { ok: true, texts: value as string[] };
}

/** The analysis of a text upload: one row per text, one column. */
export function readTextList(buf: Uint8Array): Found {
  const r = readTexts(buf);
  if (!r.ok) return r;
  return { ok: true, rows: r.texts.length, cols: 1, inputs: r.texts.length };
}
