// Evaluating the size expressions of a Python model for pymodel.ts: numbers, names, + - * / // % **,
// parentheses, tuples and a few builtins (int, float, min, max, abs, round, math.ceil, math.floor). Anything
// else is Unknown: it would need running the code.

export type Val = number | boolean | null | string | Val[];

/** A value that cannot be known without running the code; the message is for logs, never for users. */
export class Unknown extends Error {}

/** Brackets and signs nest at most this deep in one expression; real sizes nest a few levels. */
const MAX_DEPTH = 100;

const BUILTINS = ['int', 'float', 'max', 'min', 'abs', 'round', 'math.ceil', 'math.floor'];
const CONSTANTS: Record<string, number> = { 'math.inf': Infinity, 'math.nan': NaN, 'torch.inf': Infinity, 'torch.nan': NaN };

/**
 * Integers past 2^53 are not exact as JS numbers, so arithmetic past it could give a size Python would not
 * (a difference of two huge numbers); such an expression is Unknown instead of wrong. Infinity and NaN stay
 * what they are, so the size rule can name them.
 */
function exact(v: number): number {
  if (Number.isFinite(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER) throw new Unknown('beyond exact integers');
  return v;
}

export class Expr {
  private toks: string[];
  private p = 0;
  private depth = 0;
  constructor(
    text: string,
    private readonly lookup: (name: string) => Val,
  ) {
    this.toks = text.match(/\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?|\.\d+|[A-Za-z_][\w.]*|\*\*|\/\/|["'][^"']*["']|\S/g) ?? [];
  }
  static eval(text: string, lookup: (name: string) => Val): Val {
    const e = new Expr(text, lookup);
    const v = e.tuple();
    if (e.p < e.toks.length) throw new Unknown(text);
    return v;
  }
  private peek() {
    return this.toks[this.p];
  }
  private next() {
    return this.toks[this.p++];
  }
  private deeper<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new Unknown('nested too deep');
    try {
      return f();
    } finally {
      this.depth--;
    }
  }
  private tuple(): Val {
    const first = this.sum();
    if (this.peek() !== ',') return first;
    const items = [first];
    while (this.peek() === ',') {
      this.next();
      if (this.peek() === undefined || this.peek() === ')' || this.peek() === ']') break;
      items.push(this.sum());
    }
    return items;
  }
  private num(v: Val): number {
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    throw new Unknown(String(v));
  }
  private sum(): Val {
    let v = this.prod();
    while (this.peek() === '+' || this.peek() === '-') {
      const op = this.next(),
        r = this.prod();
      v = exact(op === '+' ? this.num(v) + this.num(r) : this.num(v) - this.num(r));
    }
    return v;
  }
  private prod(): Val {
    let v = this.unary();
    while (['*', '/', '//', '%'].includes(this.peek())) {
      const op = this.next(),
        a = this.num(v),
        b = this.num(this.unary());
      if (op !== '*' && b === 0) throw new Unknown('division by zero');
      // Python's % takes the sign of the divisor.
      v = exact(op === '*' ? a * b : op === '/' ? a / b : op === '//' ? Math.floor(a / b) : ((a % b) + b) % b);
    }
    return v;
  }
  private unary(): Val {
    return this.deeper(() => {
      if (this.peek() === '-') {
        this.next();
        return -this.num(this.unary());
      }
      if (this.peek() === '+') {
        this.next();
        return this.num(this.unary());
      }
      const base = this.atom();
      if (this.peek() === '**') {
        this.next();
        return exact(this.num(base) ** this.num(this.unary()));
      }
      return base;
    });
  }
  private atom(): Val {
    const t = this.next();
    if (t === undefined) throw new Unknown('end');
    if (t === '(' || t === '[') {
      const close = t === '(' ? ')' : ']';
      if (this.peek() === close) {
        this.next();
        return [];
      }
      const v = this.deeper(() => this.tuple());
      if (this.next() !== close) throw new Unknown('bracket');
      return t === '[' && !Array.isArray(v) ? [v] : v;
    }
    if (/^[\d.]/.test(t)) return exact(Number(t.replace(/_/g, '')));
    if (/^["']/.test(t)) return t.slice(1, -1);
    if (t === 'True') return true;
    if (t === 'False') return false;
    if (t === 'None') return null;
    if (/^[A-Za-z_]/.test(t)) {
      if (Object.hasOwn(CONSTANTS, t)) return CONSTANTS[t];
      if (this.peek() === '(' && BUILTINS.includes(t)) return this.builtin(t);
      return this.lookup(t);
    }
    throw new Unknown(t);
  }
  private builtin(t: string): number {
    this.next();
    const args: Val[] = [];
    while (this.peek() !== ')') {
      args.push(this.deeper(() => this.sum()));
      if (this.peek() === ',') this.next();
      else if (this.peek() !== ')') throw new Unknown(t);
    }
    this.next();
    if (args.length === 0) throw new Unknown(t);
    // float('nan'), float('inf'): what Python makes of them, so the size rule can say what it found.
    if (t === 'float' && typeof args[0] === 'string') {
      const f = /^\s*([+-]?)(nan|inf|infinity)\s*$/i.exec(args[0]);
      if (!f) throw new Unknown(t);
      return f[2].toLowerCase() === 'nan' ? NaN : f[1] === '-' ? -Infinity : Infinity;
    }
    const nums = args.map((a) => this.num(a));
    switch (t) {
      case 'int':
        return Math.trunc(nums[0]);
      case 'float':
        return nums[0];
      case 'max':
        return nums.reduce((a, b) => Math.max(a, b));
      case 'min':
        return nums.reduce((a, b) => Math.min(a, b));
      case 'abs':
        return Math.abs(nums[0]);
      // Python rounds halves to even: round(6.5) is 6.
      case 'round':
        return Math.abs(nums[0] % 1) === 0.5 ? 2 * Math.round(nums[0] / 2) : Math.round(nums[0]);
      case 'math.ceil':
        return Math.ceil(nums[0]);
      default:
        return Math.floor(nums[0]);
    }
  }
}
