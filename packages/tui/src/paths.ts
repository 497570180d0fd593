// Paths as people type or paste them into the terminal UI's fields and the CLI: quotes around a path with spaces,
// backslash-escaped spaces (what a terminal pastes when a file is dropped on it), and `~` for the home folder.
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';

/** Splits a field holding one or more paths: quoted parts and backslash-escaped spaces stay in one path. */
export function splitPaths(input: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  let has = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && (input[i + 1] === '"' || input[i + 1] === '\\')) cur += input[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < input.length) {
      cur += input[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

/** `~` and `~/…` to the home folder, then an absolute path from the working folder. */
export function expandPath(path: string, cwd: string, home = homedir()): string {
  const p = path === '~' ? home : path.startsWith(`~${sep}`) || path.startsWith('~/') ? join(home, path.slice(2)) : path;
  return resolve(cwd, p);
}

/** Quotes a path for a field when it needs it (spaces, quotes), so splitPaths reads it back whole. */
export function quotePath(path: string): string {
  return /[\s"'\\]/.test(path) ? `'${path.replace(/'/g, `'"'"'`)}'` : path;
}

/**
 * Tab completion of the last path in a field: the longest common start of the names that match, with a `/` after a
 * folder. Returns the new field text, and the names matched when several do (to show them).
 */
export function completePath(input: string, cwd: string, home = homedir()): { text: string; matches: string[] } {
  const parts = splitPaths(input);
  const endsWithSpace = /\s$/.test(input) && !/\\\s$/.test(input);
  const last = endsWithSpace || parts.length === 0 ? '' : parts[parts.length - 1];
  const before = endsWithSpace || parts.length === 0 ? parts : parts.slice(0, -1);
  const typedDir = last.endsWith('/') ? last : dirname(last) === '.' && !last.startsWith('./') ? '' : `${dirname(last)}/`;
  const prefix = last.endsWith('/') ? '' : basename(last);
  let names: string[];
  try {
    names = readdirSync(expandPath(typedDir || '.', cwd, home)).filter(
      (n) => n.startsWith(prefix) && (prefix.startsWith('.') || !n.startsWith('.')),
    );
  } catch {
    return { text: input, matches: [] };
  }
  if (names.length === 0) return { text: input, matches: [] };
  let common = names[0];
  for (const n of names) while (!n.startsWith(common)) common = common.slice(0, -1);
  let completed = `${typedDir}${common}`;
  if (names.length === 1) {
    let isDir = false;
    try {
      isDir = statSync(expandPath(completed, cwd, home)).isDirectory();
    } catch {
      isDir = false;
    }
    if (isDir) completed += '/';
  }
  const text = [...before, completed].map(quotePath).join(' ') + (names.length === 1 && !completed.endsWith('/') ? ' ' : '');
  return { text, matches: names.length > 1 ? names.sort() : [] };
}
