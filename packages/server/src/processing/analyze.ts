// Upload analysis: reads an uploaded file without executing any of it and says how many rows, columns and
// input parameters it holds, or, in a sentence a user understands, why it cannot be used.
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { MESSAGES, PLAN_LIMITS, UPLOAD_CONTEXTS } from '@portal/core';
import { scanJsonTable } from './table';

export interface AnalysisLimits {
  rows: number;
  inputColumns: number;
  maxParameters: number;
}

export interface Analysis {
  proc: 1 | 2;
  rows: number | null;
  cols: number | null;
  inputs: number | null;
  error: string | null;
}

/** What a format reader found before the plan's limits are applied. */
export type Found =
  | { ok: true; rows: number | null; cols: number | null; inputs: number | null }
  | { ok: false; error: string };

export type Reader = (buf: Uint8Array, limits: AnalysisLimits) => Found | Promise<Found>;

const fmt = (n: number) => n.toLocaleString('en-US');

/** No plan accepts more than this, so a larger file cannot have come through an upload. */
const MAX_BYTES = Math.max(...Object.values(PLAN_LIMITS).map((p) => p.maxFileSize));

export const fail = (error: string): Found => ({ ok: false, error });

const readJson: Reader = (buf) => {
  const r = scanJsonTable(buf, false);
  if (!r.ok) return fail(r.error);
  const { rows, cols } = r.table;
  return { ok: true, rows, cols, inputs: rows * cols };
};

const readers = new Map<string, Reader>([['.json', readJson]]);

/** Registers the reader of one extension (each format lives in its own module). */
export function registerReader(ext: string, reader: Reader): void {
  readers.set(ext, reader);
}

export async function analyzeFile(path: string, fileName: string, limits: AnalysisLimits): Promise<Analysis> {
  const ext = extname(fileName).toLowerCase();
  const reader = readers.get(ext);
  if (!reader) return failed(MESSAGES.invalidFileType(UPLOAD_CONTEXTS.uploads.extensions));
  let buf: Buffer;
  try {
    const info = await stat(path);
    if (info.size > MAX_BYTES) return failed(`This file is ${fmt(info.size)} bytes; uploads are limited to ${fmt(MAX_BYTES)} bytes.`);
    if (info.size === 0) return failed('The file is empty.');
    buf = await readFile(path);
  } catch {
    return failed('The uploaded file could not be read from storage; please upload it again.');
  }
  let found: Found;
  try {
    found = await reader(buf, limits);
  } catch {
    // A reader bug must not take the worker down or leave the upload pending: report it as unreadable.
    found = fail(`This ${ext} file could not be read; check that it is a valid ${ext} file.`);
  }
  if (!found.ok) return failed(found.error);
  if (found.rows !== null && found.rows > limits.rows) {
    return { proc: 2, rows: found.rows, cols: found.cols, inputs: found.inputs, error: `This file has ${fmt(found.rows)} rows; your plan allows up to ${fmt(limits.rows)}.` };
  }
  return { proc: 1, rows: found.rows, cols: found.cols, inputs: found.inputs, error: null };
}

function failed(error: string): Analysis {
  return { proc: 2, rows: null, cols: null, inputs: null, error };
}
