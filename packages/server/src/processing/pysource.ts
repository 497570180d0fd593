// Reading a Python file's text for pymodel.ts: comments and strings blanked, logical lines joined, brackets
// matched. Every step is linear in the file's length, so a 10 MB file of one bracket cannot make it quadratic.

export interface Logical {
  text: string;
  line: number;
  indent: number;
  /** Offsets in `text` where each further physical line starts, to report the line of a call. */
  starts: number[];
}

/** The physical line of an offset in a logical line (binary search: a call can sit deep in a long line). */
export function lineAt(l: Logical, offset: number): number {
  let lo = 0,
    hi = l.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (l.starts[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return l.line + lo;
}

/** Blanks out comments and string contents (keeping newlines), so only code is searched. */
export function stripCode(src: string): string {
  const out: string[] = [];
  const special = /[#"']/g;
  let i = 0;
  while (i < src.length) {
    // Code between comments and strings is copied in one slice.
    special.lastIndex = i;
    const m = special.exec(src);
    if (!m) {
      out.push(src.slice(i));
      break;
    }
    out.push(src.slice(i, m.index));
    i = m.index;
    const c = src[i];
    if (c === '#') {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
      continue;
    }
    const triple = src.startsWith(c.repeat(3), i);
    const q = triple ? c.repeat(3) : c;
    out.push(c);
    i += q.length;
    const body: string[] = [];
    let bodyLength = 0;
    while (i < src.length && !src.startsWith(q, i)) {
      if (src[i] === '\\') {
        body.push('  ');
        bodyLength += 2;
        i += 2;
        continue;
      }
      if (!triple && src[i] === '\n') break;
      body.push(src[i] === '\n' ? '\n' : ' ');
      bodyLength++;
      i++;
    }
    // Short literal contents are kept: they are often string constants such as padding_mode or nonlinearity.
    out.push(!triple && bodyLength < 40 ? src.slice(i - bodyLength, i) : body.join(''), c);
    i += q.length;
  }
  return out.join('');
}

/** Joins physical lines inside brackets or after a backslash into logical lines. */
export function logicalLines(code: string): Logical[] {
  const phys = code.split('\n');
  const out: Logical[] = [];
  let depth = 0;
  // The current logical line's pieces, joined once it ends (joining as it grows would be quadratic).
  let cur: Logical | null = null;
  let parts: string[] = [];
  let length = 0;
  let backslash = false;
  const finish = () => {
    if (cur) cur.text = parts.join('');
    cur = null;
  };
  phys.forEach((raw, idx) => {
    const trimmed = raw.trim();
    if (cur !== null && (depth > 0 || backslash)) {
      if (backslash) {
        parts[parts.length - 1] = parts[parts.length - 1].slice(0, -1);
        length--;
      }
      parts.push(' ');
      length++;
      cur.starts.push(length);
      parts.push(trimmed);
      length += trimmed.length;
    } else {
      if (trimmed === '') return;
      cur = { text: '', line: idx + 1, indent: raw.length - raw.trimStart().length, starts: [] };
      parts = [trimmed];
      length = trimmed.length;
      out.push(cur);
    }
    for (const ch of raw) {
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    }
    backslash = trimmed.endsWith('\\');
    if (depth === 0 && !backslash) finish();
  });
  finish();
  return out;
}

/** Splits at top-level commas. */
export function splitArgs(s: string): string[] {
  const parts: string[] = [];
  let d = 0,
    start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[' || c === '{') d++;
    else if (c === ')' || c === ']' || c === '}') d--;
    else if (c === ',' && d === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Index of the bracket closing the one at `open`, or -1 (for short texts; long lines use Brackets). */
export function closeOf(s: string, open: number): number {
  let d = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[' || c === '{') d++;
    else if (c === ')' || c === ']' || c === '}') {
      d--;
      if (d === 0) return i;
    }
  }
  return -1;
}

/**
 * Brackets of one logical line, matched once: where each bracket closes, and for a call at some position,
 * the comprehensions over range(...) that enclose it, which multiply how many layers it builds. Linear in
 * the line's length, so a Sequential of thousands of layers on one logical line stays fast.
 */
export class Brackets {
  /** For each position, the innermost open bracket that contains it (-1 at top level). */
  private readonly inside: Int32Array;
  /** For each opening bracket's position, where it closes (-1 if never). Typed arrays: a long line has millions. */
  private readonly closes: Int32Array;
  private readonly mults = new Map<number, number>();

  /** `rangeCount(args, at)` counts what range(args) at offset `at` yields, or null when it cannot be read. */
  constructor(
    private readonly text: string,
    private readonly rangeCount: (args: string, at: number) => number | null,
  ) {
    this.inside = new Int32Array(text.length).fill(-1);
    this.closes = new Int32Array(text.length).fill(-1);
    const stack: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      this.inside[i] = stack.length ? stack[stack.length - 1] : -1;
      if (c === '(' || c === '[' || c === '{') stack.push(i);
      else if (c === ')' || c === ']' || c === '}') {
        const open = stack.pop();
        if (open !== undefined) this.closes[open] = i;
      }
    }
  }

  /** Where the bracket opened at `open` closes, or -1. */
  close(open: number): number {
    return this.closes[open] ?? -1;
  }

  /** Product of the range(...) counts of the comprehensions enclosing position `at`. */
  multiplier(at: number): number {
    let mult = 1;
    for (let b = this.inside[at] ?? -1; b >= 0; b = this.inside[b]) mult *= this.own(b);
    return mult;
  }

  private own(open: number): number {
    const known = this.mults.get(open);
    if (known !== undefined) return known;
    let mult = 1;
    const end = this.closes[open] >= 0 ? this.closes[open] : this.text.length;
    // Only this bracket's own level counts: "for ... in range(" written directly inside it. Inner brackets are
    // jumped over, so the brackets enclosing one call are read in time linear in the line.
    const top: string[] = [];
    let from = open + 1;
    for (let i = open + 1; i < end; i++) {
      const c = this.text[i];
      if ((c === '(' || c === '[' || c === '{') && this.closes[i] >= 0) {
        top.push(this.text.slice(from, i + 1), ' ');
        i = this.closes[i];
        from = i;
      }
    }
    top.push(this.text.slice(from, end));
    if (/\bfor\s+[\w, ]{1,200}?\s+in\s+range\s*\(/.test(top.join(''))) {
      // Positions in `text` no longer map to the line, so the range's own bracket is found again.
      const rOpen = this.rangeOpen(open, end);
      if (rOpen >= 0) mult = this.rangeCount(this.text.slice(rOpen + 1, this.closes[rOpen]), rOpen) ?? 1;
    }
    this.mults.set(open, mult);
    return mult;
  }

  /** The "range(" bracket directly inside the bracket at `open` (the first one at that level). */
  private rangeOpen(open: number, end: number): number {
    for (let i = open + 1; i < end; i++) {
      const c = this.text[i];
      if (c === '(' && this.inside[i] === open && /\brange\s*$/.test(this.text.slice(Math.max(open, i - 12), i)) && this.closes[i] >= 0)
        return i;
      if ((c === '(' || c === '[' || c === '{') && this.closes[i] >= 0) i = this.closes[i];
    }
    return -1;
  }
}
