// Upload analysis: reads an uploaded file without executing any of it and says how many rows, columns and
// input parameters it holds, or, in a sentence a user understands, why it cannot be used.
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { MESSAGES, PLAN_LIMITS, UPLOAD_CONTEXTS } from '@portal/core';
import { fail, type AnalysisLimits, type Found, type Reader } from './found';
import { readNpy, readNpz } from './numpy';
import { readPickleFile, readPt } from './pickled';
import { readPyModel } from './pymodel';
import { scanJsonTable } from './table';
import { readText } from './text';
import { isTextList, readTextList } from './texts';

export type { AnalysisLimits } from './found';

export interface Analysis {
  proc: 1 | 2;
  rows: number | null;
  cols: number | null;
  inputs: number | null;
  error: string | null;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** No plan accepts more than this, so a larger file cannot have come through an upload. */
const MAX_BYTES = Math.max(...Object.values(PLAN_LIMITS).map((p) => p.maxFileSize));

const readJson: Reader = (buf) => {
  if (isTextList(buf)) return readTextList(buf);
  const r = scanJsonTable(buf, false);
  if (!r.ok) return fail(r.error);
  const { rows, cols } = r.table;
  return { ok: true, rows, cols, inputs: rows * cols };
};

const readPy: Reader = (buf, limits) => {
  const r = readPyModel(Buffer.from(buf).toString('utf8'));
  if (!r.ok) return fail(r.error);
  if (r.parameters > limits.maxParameters) {
    return fail(
      `This model has ${fmt(r.parameters)} parameters; shrink accepts models of at most ${limitWords(limits.maxParameters)} parameters.`,
    );
  }
  return { ok: true, rows: null, cols: null, inputs: r.parameters };
};

/** 1,000,000,000 reads "1 billion", as SPEC states the limit. */
function limitWords(n: number): string {
  if (n >= 1e9 && n % 1e9 === 0) return `${fmt(n / 1e9)} billion`;
  if (n >= 1e6 && n % 1e6 === 0) return `${fmt(n / 1e6)} million`;
  return fmt(n);
}

const READERS: Record<string, Reader> = {
  '.json': readJson,
  '.txt': readText,
  '.npy': readNpy,
  '.npz': readNpz,
  '.pt': readPt,
  '.pkl': readPickleFile,
  '.pickle': readPickleFile,
  '.sav': readPickleFile,
  '.py': readPy,
};

export async function analyzeFile(path: string, fileName: string, limits: AnalysisLimits): Promise<Analysis> {
  const ext = extname(fileName).toLowerCase();
  const reader = Object.hasOwn(READERS, ext) ? READERS[ext] : undefined;
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
  // Rows, columns and inputs go to bigint columns and into prices: only whole, non-negative, exact numbers
  // leave here, whatever a reader computed, so no database error can ever reach the user.
  if (![found.rows, found.cols, found.inputs].every(isCount)) {
    return failed(
      `This ${ext} file declares sizes that cannot be right (${[found.rows, found.cols, found.inputs].filter((v) => v !== null).join(', ')}); check that it is a valid ${ext} file.`,
    );
  }
  if (found.rows !== null && found.rows > limits.rows) {
    return {
      proc: 2,
      rows: found.rows,
      cols: found.cols,
      inputs: found.inputs,
      error: `This file has ${fmt(found.rows)} rows; your plan allows up to ${fmt(limits.rows)}.`,
    };
  }
  return { proc: 1, rows: found.rows, cols: found.cols, inputs: found.inputs, error: null };
}

const isCount = (v: number | null) => v === null || (Number.isSafeInteger(v) && v >= 0);

function failed(error: string): Analysis {
  return { proc: 2, rows: null, cols: null, inputs: null, error };
}
