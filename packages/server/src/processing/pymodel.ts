// A static reading of a PyTorch model's .py source: finds nn layer constructions in classes and module code,
// evaluates their sizes from literals and simple constants, and counts parameters, without running the file.

export interface LayerCount {
  /** Where the layer sits, e.g. "Net.encoder.fc1". */
  name: string;
  type: string;
  line: number;
  /** Parameters of one instance. */
  parameters: number;
  /** How many instances the model builds (classes used several times, comprehensions over range). */
  count: number;
  /** When this layer's weight is another layer's (weight tying), that layer; its weight is counted there. */
  tiedTo?: string;
}

export type ModelReading = { ok: true; parameters: number; layers: LayerCount[] } | { ok: false; error: string };

type Val = number | boolean | null | string | Val[];

class Unknown extends Error {}

interface Logical {
  text: string;
  line: number;
  indent: number;
  /** Offsets in `text` where each further physical line starts, to report the line of a call. */
  starts: number[];
}

const lineAt = (l: Logical, offset: number) => {
  let k = 0;
  while (k < l.starts.length && l.starts[k] <= offset) k++;
  return l.line + k;
};

/** Blanks out comments and string contents (keeping newlines), so only code is searched. */
function stripCode(src: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const triple = src.startsWith(c.repeat(3), i);
      const q = triple ? c.repeat(3) : c;
      out.push(c === '"' ? '"' : "'");
      i += q.length;
      let body = '';
      while (i < src.length && !src.startsWith(q, i)) {
        if (src[i] === '\\') { body += '  '; i += 2; continue; }
        if (!triple && src[i] === '\n') break;
        body += src[i] === '\n' ? '\n' : ' ';
        i++;
      }
      // Short literal contents are kept: they are often string constants such as padding_mode or nonlinearity.
      out.push(!triple && body.length < 40 ? src.slice(i - body.length, i) : body, c);
      i += q.length;
      continue;
    }
    out.push(c);
    i++;
  }
  return out.join('');
}

function logicalLines(code: string): Logical[] {
  const phys = code.split('\n');
  const out: Logical[] = [];
  let depth = 0;
  let cur: Logical | null = null;
  phys.forEach((raw, idx) => {
    const cont = cur !== null && (depth > 0 || cur.text.endsWith('\\'));
    if (cont && cur) {
      cur.text = cur.text.replace(/\\$/, '') + ' ';
      cur.starts.push(cur.text.length);
      cur.text += raw.trim();
    } else {
      if (raw.trim() === '') return;
      cur = { text: raw.trim(), line: idx + 1, indent: raw.length - raw.trimStart().length, starts: [] };
      out.push(cur);
    }
    for (const ch of raw) {
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    }
    if (depth === 0 && !(cur && cur.text.endsWith('\\'))) cur = null;
  });
  return out;
}

/** Index of the bracket closing the one at `open`, or -1. */
function closeOf(s: string, open: number): number {
  let d = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[' || c === '{') d++;
    else if (c === ')' || c === ']' || c === '}') { d--; if (d === 0) return i; }
  }
  return -1;
}

/** Splits at top-level commas. */
function splitArgs(s: string): string[] {
  const parts: string[] = [];
  let d = 0, start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[' || c === '{') d++;
    else if (c === ')' || c === ']' || c === '}') d--;
    else if (c === ',' && d === 0) { parts.push(s.slice(start, i)); start = i + 1; }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

// ---- expressions: numbers, names, + - * / // % **, parentheses, tuples, int/min/max ----
class Expr {
  private toks: string[];
  private p = 0;
  constructor(text: string, private readonly lookup: (name: string) => Val) {
    this.toks = text.match(/\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?|\.\d+|[A-Za-z_][\w.]*|\*\*|\/\/|["'][^"']*["']|\S/g) ?? [];
  }
  static eval(text: string, lookup: (name: string) => Val): Val {
    const e = new Expr(text, lookup);
    const v = e.tuple();
    if (e.p < e.toks.length) throw new Unknown(text);
    return v;
  }
  private peek() { return this.toks[this.p]; }
  private next() { return this.toks[this.p++]; }
  private tuple(): Val {
    const first = this.sum();
    if (this.peek() !== ',') return first;
    const items = [first];
    while (this.peek() === ',') { this.next(); if (this.peek() === undefined || this.peek() === ')' || this.peek() === ']') break; items.push(this.sum()); }
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
      const op = this.next(), r = this.prod();
      v = op === '+' ? this.num(v) + this.num(r) : this.num(v) - this.num(r);
    }
    return v;
  }
  private prod(): Val {
    let v = this.unary();
    while (['*', '/', '//', '%'].includes(this.peek())) {
      const op = this.next(), a = this.num(v), b = this.num(this.unary());
      if (op !== '*' && b === 0) throw new Unknown('division by zero');
      v = op === '*' ? a * b : op === '/' ? a / b : op === '//' ? Math.floor(a / b) : a % b;
    }
    return v;
  }
  private unary(): Val {
    if (this.peek() === '-') { this.next(); return -this.num(this.unary()); }
    if (this.peek() === '+') { this.next(); return this.num(this.unary()); }
    const base = this.atom();
    if (this.peek() === '**') { this.next(); return this.num(base) ** this.num(this.unary()); }
    return base;
  }
  private atom(): Val {
    const t = this.next();
    if (t === undefined) throw new Unknown('end');
    if (t === '(' || t === '[') {
      const close = t === '(' ? ')' : ']';
      if (this.peek() === close) { this.next(); return []; }
      const v = this.tuple();
      if (this.next() !== close) throw new Unknown('bracket');
      return t === '[' && !Array.isArray(v) ? [v] : v;
    }
    if (/^[\d.]/.test(t)) return Number(t.replace(/_/g, ''));
    if (/^["']/.test(t)) return t.slice(1, -1);
    if (t === 'True') return true;
    if (t === 'False') return false;
    if (t === 'None') return null;
    if (/^[A-Za-z_]/.test(t)) {
      if (this.peek() === '(' && ['int', 'max', 'min', 'abs', 'round', 'math.ceil', 'math.floor'].includes(t)) {
        this.next();
        const args: number[] = [];
        while (this.peek() !== ')') { args.push(this.num(this.sum())); if (this.peek() === ',') this.next(); else if (this.peek() !== ')') throw new Unknown(t); }
        this.next();
        if (args.length === 0) throw new Unknown(t);
        switch (t) {
          case 'int': return Math.trunc(args[0]);
          case 'max': return Math.max(...args);
          case 'min': return Math.min(...args);
          case 'abs': return Math.abs(args[0]);
          case 'round': return Math.round(args[0]);
          case 'math.ceil': return Math.ceil(args[0]);
          default: return Math.floor(args[0]);
        }
      }
      return this.lookup(t);
    }
    throw new Unknown(t);
  }
}

// ---- layers: positional argument names, defaults and parameter formulas ----
type Args = Record<string, Val>;
interface LayerDef { args: string[]; defaults: Args; count: (a: Args) => number }

const n = (v: Val, what: string): number => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new Unknown(what);
};
const dims = (v: Val, k: number): number => {
  if (Array.isArray(v)) return v.reduce((p: number, x) => p * n(x, 'kernel_size'), 1);
  return n(v, 'kernel_size') ** k;
};
/** Marks an argument whose value needs running code; any formula that reads it fails. */
const UNREADABLE = '\u0000unreadable';
const flag = (v: Val | undefined) => {
  if (v === UNREADABLE) throw new Unknown('flag');
  return v !== undefined && v !== false && v !== null && v !== 0;
};

const conv = (k: number, transposed: boolean): LayerDef => ({
  args: transposed
    ? ['in_channels', 'out_channels', 'kernel_size', 'stride', 'padding', 'output_padding', 'groups', 'bias', 'dilation']
    : ['in_channels', 'out_channels', 'kernel_size', 'stride', 'padding', 'dilation', 'groups', 'bias'],
  defaults: { groups: 1, bias: true },
  count: (a) => {
    const inC = n(a.in_channels, 'in_channels'), outC = n(a.out_channels, 'out_channels'), g = n(a.groups, 'groups');
    const w = transposed ? inC * (outC / g) : outC * (inC / g);
    return w * dims(a.kernel_size, k) + (flag(a.bias) ? outC : 0);
  },
});

const recurrent = (gates: number, kind: 'LSTM' | 'GRU' | 'RNN'): LayerDef => ({
  args: kind === 'RNN'
    ? ['input_size', 'hidden_size', 'num_layers', 'nonlinearity', 'bias', 'batch_first', 'dropout', 'bidirectional']
    : ['input_size', 'hidden_size', 'num_layers', 'bias', 'batch_first', 'dropout', 'bidirectional', 'proj_size'],
  defaults: { num_layers: 1, bias: true, bidirectional: false, proj_size: 0 },
  count: (a) => {
    const inp = n(a.input_size, 'input_size'), h = n(a.hidden_size, 'hidden_size'), layers = n(a.num_layers, 'num_layers');
    const dirs = flag(a.bidirectional) ? 2 : 1, proj = n(a.proj_size, 'proj_size'), out = proj > 0 ? proj : h;
    let total = 0;
    for (let l = 0; l < layers; l++) {
      const x = l === 0 ? inp : out * dirs;
      const one = gates * h * x + gates * h * out + (flag(a.bias) ? 2 * gates * h : 0) + (proj > 0 ? proj * h : 0);
      total += one * dirs;
    }
    return total;
  },
});

const cell = (gates: number): LayerDef => ({
  args: ['input_size', 'hidden_size', 'bias'],
  defaults: { bias: true },
  count: (a) => {
    const i = n(a.input_size, 'input_size'), h = n(a.hidden_size, 'hidden_size');
    return gates * h * (i + h) + (flag(a.bias) ? 2 * gates * h : 0);
  },
});

const mha = (a: Args): number => {
  const e = n(a.embed_dim, 'embed_dim');
  const kd = a.kdim === null || a.kdim === undefined ? e : n(a.kdim, 'kdim');
  const vd = a.vdim === null || a.vdim === undefined ? e : n(a.vdim, 'vdim');
  const bias = flag(a.bias);
  return e * e + e * kd + e * vd + (bias ? 3 * e : 0) + e * e + (bias ? e : 0) + (flag(a.add_bias_kv) ? 2 * e : 0);
};

const norm = (affineDefault: boolean): LayerDef => ({
  args: ['num_features', 'eps', 'momentum', 'affine', 'track_running_stats'],
  defaults: { affine: affineDefault },
  count: (a) => (flag(a.affine) ? 2 * n(a.num_features, 'num_features') : 0),
});

export const LAYERS: Record<string, LayerDef> = {
  Linear: { args: ['in_features', 'out_features', 'bias'], defaults: { bias: true }, count: (a) => n(a.in_features, 'in_features') * n(a.out_features, 'out_features') + (flag(a.bias) ? n(a.out_features, 'out_features') : 0) },
  Bilinear: { args: ['in1_features', 'in2_features', 'out_features', 'bias'], defaults: { bias: true }, count: (a) => n(a.in1_features, 'in1_features') * n(a.in2_features, 'in2_features') * n(a.out_features, 'out_features') + (flag(a.bias) ? n(a.out_features, 'out_features') : 0) },
  Conv1d: conv(1, false), Conv2d: conv(2, false), Conv3d: conv(3, false),
  ConvTranspose1d: conv(1, true), ConvTranspose2d: conv(2, true), ConvTranspose3d: conv(3, true),
  Embedding: { args: ['num_embeddings', 'embedding_dim'], defaults: {}, count: (a) => n(a.num_embeddings, 'num_embeddings') * n(a.embedding_dim, 'embedding_dim') },
  EmbeddingBag: { args: ['num_embeddings', 'embedding_dim'], defaults: {}, count: (a) => n(a.num_embeddings, 'num_embeddings') * n(a.embedding_dim, 'embedding_dim') },
  LayerNorm: {
    args: ['normalized_shape', 'eps', 'elementwise_affine', 'bias'],
    defaults: { elementwise_affine: true, bias: true },
    count: (a) => (flag(a.elementwise_affine) ? dims(a.normalized_shape, 1) * (flag(a.bias) ? 2 : 1) : 0),
  },
  RMSNorm: { args: ['normalized_shape', 'eps', 'elementwise_affine'], defaults: { elementwise_affine: true }, count: (a) => (flag(a.elementwise_affine) ? dims(a.normalized_shape, 1) : 0) },
  GroupNorm: { args: ['num_groups', 'num_channels', 'eps', 'affine'], defaults: { affine: true }, count: (a) => (flag(a.affine) ? 2 * n(a.num_channels, 'num_channels') : 0) },
  BatchNorm1d: norm(true), BatchNorm2d: norm(true), BatchNorm3d: norm(true), SyncBatchNorm: norm(true),
  InstanceNorm1d: norm(false), InstanceNorm2d: norm(false), InstanceNorm3d: norm(false),
  LSTM: recurrent(4, 'LSTM'), GRU: recurrent(3, 'GRU'), RNN: recurrent(1, 'RNN'),
  LSTMCell: cell(4), GRUCell: cell(3), RNNCell: cell(1),
  MultiheadAttention: {
    args: ['embed_dim', 'num_heads', 'dropout', 'bias', 'add_bias_kv', 'add_zero_attn', 'kdim', 'vdim'],
    defaults: { bias: true, add_bias_kv: false, kdim: null, vdim: null },
    count: mha,
  },
  TransformerEncoderLayer: {
    args: ['d_model', 'nhead', 'dim_feedforward', 'dropout', 'activation', 'layer_norm_eps', 'batch_first', 'norm_first', 'bias'],
    defaults: { dim_feedforward: 2048, bias: true },
    count: (a) => {
      const d = n(a.d_model, 'd_model'), f = n(a.dim_feedforward, 'dim_feedforward'), b = flag(a.bias);
      return mha({ embed_dim: d, bias: b }) + d * f + (b ? f : 0) + f * d + (b ? d : 0) + 2 * (b ? 2 * d : d);
    },
  },
  TransformerDecoderLayer: {
    args: ['d_model', 'nhead', 'dim_feedforward', 'dropout', 'activation', 'layer_norm_eps', 'batch_first', 'norm_first', 'bias'],
    defaults: { dim_feedforward: 2048, bias: true },
    count: (a) => {
      const d = n(a.d_model, 'd_model'), f = n(a.dim_feedforward, 'dim_feedforward'), b = flag(a.bias);
      return 2 * mha({ embed_dim: d, bias: b }) + d * f + (b ? f : 0) + f * d + (b ? d : 0) + 3 * (b ? 2 * d : d);
    },
  },
  Transformer: {
    args: ['d_model', 'nhead', 'num_encoder_layers', 'num_decoder_layers', 'dim_feedforward', 'dropout', 'activation', 'custom_encoder', 'custom_decoder', 'layer_norm_eps', 'batch_first', 'norm_first', 'bias'],
    defaults: { d_model: 512, nhead: 8, num_encoder_layers: 6, num_decoder_layers: 6, dim_feedforward: 2048, bias: true },
    count: (a) => {
      const b: Args = { d_model: a.d_model, dim_feedforward: a.dim_feedforward, bias: a.bias };
      const d = n(a.d_model, 'd_model'), norm = flag(a.bias) ? 2 * d : d;
      return n(a.num_encoder_layers, 'num_encoder_layers') * LAYERS.TransformerEncoderLayer.count(b) + norm
        + n(a.num_decoder_layers, 'num_decoder_layers') * LAYERS.TransformerDecoderLayer.count(b) + norm;
    },
  },
  PReLU: { args: ['num_parameters'], defaults: { num_parameters: 1 }, count: (a) => n(a.num_parameters, 'num_parameters') },
};

/** Containers that deep-copy the layer they are given num_layers times. */
const CLONERS = ['TransformerEncoder', 'TransformerDecoder'];
/** nn.Parameter(torch.zeros(...)) and friends: a raw weight whose size is its tensor's shape. */
const PARAMETER = 'Parameter';
const TENSOR_MAKERS = /^torch\.(ones|zeros|randn|rand|empty|full|eye|tensor)\s*\(/;
const LAYER_NAMES = [...Object.keys(LAYERS), ...CLONERS, PARAMETER].sort((a, b) => b.length - a.length).join('|');

interface Call { kind: 'layer' | 'unit'; type: string; attr: string; line: number; args: string; mult: number }

/** A top-level class or function of the file: what it builds, and the names its arguments bind to. */
interface Unit {
  name: string;
  kind: 'class' | 'def';
  params: string[];
  calls: Call[];
  /** Weight tying, `self.a.weight = self.b.weight`: a's weight is b's, counted once. */
  ties: Array<[string, string]>;
}

/** Parameter names of a def's signature, without self/cls and starred parameters. */
function paramNames(sig: string): string[] {
  return splitArgs(sig)
    .filter((p) => !p.startsWith('*') && p !== '/')
    .map((p) => /^([A-Za-z_]\w*)/.exec(p)?.[1] ?? '')
    .filter((p, k) => p !== '' && !(k === 0 && (p === 'self' || p === 'cls')));
}

const fmt = (x: number) => x.toLocaleString('en-US');

/**
 * Brackets of one logical line, matched once: for a call at some position, the comprehensions over
 * range(...) that enclose it multiply how many layers it builds. Linear in the line's length, so a
 * Sequential of thousands of layers on one logical line stays fast.
 */
class Brackets {
  /** For each position, the innermost open bracket that contains it (-1 at top level). */
  private readonly inside: Int32Array;
  private readonly parent = new Map<number, number>();
  private readonly close = new Map<number, number>();
  private readonly mults = new Map<number, number>();

  constructor(private readonly text: string, private readonly evalExpr: (s: string) => Val) {
    this.inside = new Int32Array(text.length).fill(-1);
    const stack: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      this.inside[i] = stack.length ? stack[stack.length - 1] : -1;
      if (c === '(' || c === '[' || c === '{') {
        this.parent.set(i, this.inside[i]);
        stack.push(i);
      } else if (c === ')' || c === ']' || c === '}') {
        const open = stack.pop();
        if (open !== undefined) this.close.set(open, i);
      }
    }
  }

  /** Product of the range(...) counts of the comprehensions enclosing position `at`. */
  multiplier(at: number): number {
    let mult = 1;
    for (let b = this.inside[at] ?? -1; b >= 0; b = this.parent.get(b) ?? -1) mult *= this.own(b);
    return mult;
  }

  private own(open: number): number {
    const known = this.mults.get(open);
    if (known !== undefined) return known;
    let mult = 1;
    const end = this.close.get(open) ?? this.text.length;
    // Only this bracket's own level counts: "for ... in range(" written directly inside it.
    let top = '';
    for (let i = open + 1; i < end; i++) top += this.inside[i] === open ? this.text[i] : ' ';
    const r = /\bfor\s+[\w, ]+\s+in\s+range\s*\(/.exec(top);
    if (r) {
      const rOpen = open + 1 + r.index + r[0].length - 1;
      const rClose = this.close.get(rOpen) ?? -1;
      try {
        mult = rangeCount(splitArgs(this.text.slice(rOpen + 1, rClose)).map((p) => n(this.evalExpr(p), 'range')));
      } catch (e) {
        if (!(e instanceof Unknown)) throw e;
      }
    }
    this.mults.set(open, mult);
    return mult;
  }
}

/** How many items range(...) yields for its evaluated arguments. */
function rangeCount(parts: number[]): number {
  const count = parts.length === 1 ? parts[0] : parts.length >= 2 ? Math.ceil((parts[1] - parts[0]) / (parts[2] ?? 1)) : 1;
  return Math.max(0, count);
}

export function readPyModel(source: string): ModelReading {
  const code = stripCode(source.replace(/\r\n?/g, '\n'));
  const lines = logicalLines(code);

  // Units: top-level classes and functions, with their bodies by indentation and their parameter names.
  const units = new Map<string, Unit>();
  const owner: Array<string | null> = [];
  let current: { name: string; indent: number } | null = null;
  for (const l of lines) {
    if (current && l.indent <= current.indent) current = null;
    owner.push(current ? current.name : null);
    if (current) {
      const unit = units.get(current.name)!;
      const tie = /^(?:self\.)?(?:[\w.]*\.)?(\w+)\.weight\s*=\s*(?:self\.)?(?:[\w.]*\.)?(\w+)\.weight$/.exec(l.text);
      if (tie) unit.ties.push([tie[1], tie[2]]);
      const init = /^def\s+__init__\s*\((.*)\)\s*(?:->.*)?:$/.exec(l.text);
      if (unit.kind === 'class' && init && unit.params.length === 0) unit.params = paramNames(init[1]);
      continue;
    }
    const c = /^class\s+([A-Za-z_]\w*)\s*[(:]/.exec(l.text);
    const d = /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\((.*)\)\s*(?:->.*)?:$/.exec(l.text);
    if (c) { units.set(c[1], { name: c[1], kind: 'class', params: [], calls: [], ties: [] }); current = { name: c[1], indent: l.indent }; }
    else if (d) { units.set(d[1], { name: d[1], kind: 'def', params: paramNames(d[2]), calls: [], ties: [] }); current = { name: d[1], indent: l.indent }; }
  }
  // Constants: assignments (module, class, self.x) and def parameter defaults, remembered with the unit
  // they are written in, so each class's `self.dim` is its own.
  interface Const { expr: string; unit: string | null }
  const consts = new Map<string, Const[]>();
  const add = (name: string, expr: string, unit: string | null) => {
    const bareName = name.replace(/^self\./, '');
    for (const k of new Set([name, bareName, bareName.split('.').pop()!])) {
      if (!consts.has(k)) consts.set(k, []);
      consts.get(k)!.push({ expr, unit });
    }
  };
  lines.forEach((l, i) => {
    const a = /^([A-Za-z_][\w.]*)\s*(?::\s*[^=]+)?=(?!=)\s*(.+)$/.exec(l.text);
    if (a && !/^(if|elif|while|for|return|def|class)\b/.test(a[1])) add(a[1], a[2], owner[i]);
    const d = /^(?:async\s+)?def\s+(\w+)\s*\((.*)\)\s*(?:->.*)?:$/.exec(l.text);
    if (d) {
      for (const p of splitArgs(d[2])) {
        const m = /^\*{0,2}([A-Za-z_]\w*)\s*(?::[^=]+)?=\s*(.+)$/.exec(p);
        if (m) add(m[1], m[2], owner[i] ?? d[1]);
      }
    }
  });
  // Names resolve in the unit being expanded: its `self.` assignments, its call's arguments, then constants
  // of the same unit, of the module, and of any other unit.
  interface Scope { vars: ReadonlyMap<string, Val>; unit: string | null }
  const NO_SCOPE: Scope = { vars: new Map(), unit: null };
  const resolving = new Set<string>();
  const lookupIn = (scope: Scope) => {
    const tryConsts = (key: string, only?: (c: Const) => boolean): { found: true; value: Val } | { found: false } => {
      const all = consts.get(key);
      const rk = `${scope.unit ?? ''}\u0000${key}`;
      if (!all || resolving.has(rk)) return { found: false };
      const rank = (c: Const) => (c.unit === scope.unit ? 0 : c.unit === null ? 1 : 2);
      const ordered = all.filter(only ?? (() => true)).sort((x, y) => rank(x) - rank(y));
      resolving.add(rk);
      try {
        for (const c of ordered) {
          try { return { found: true, value: Expr.eval(c.expr, lookup) }; } catch (err) { if (!(err instanceof Unknown)) throw err; }
        }
      } finally {
        resolving.delete(rk);
      }
      return { found: false };
    };
    const lookup = (name: string): Val => {
      if (name.startsWith('self.')) {
        const own = tryConsts(name, (c) => c.unit === scope.unit);
        if (own.found) return own.value;
      }
      const keys = [name, name.replace(/^self\./, ''), name.split('.').pop()!];
      for (const key of keys) if (scope.vars.has(key)) return scope.vars.get(key)!;
      for (const key of keys) {
        const r = tryConsts(key);
        if (r.found) return r.value;
      }
      throw new Unknown(name);
    };
    return lookup;
  };
  const evalIn = (s: string, scope: Scope) => Expr.eval(s, lookupIn(scope));
  const evalExpr = (s: string) => evalIn(s, NO_SCOPE);

  // Which bare names mean torch.nn layers (from torch.nn import Linear, ...).
  const bare = new Set<string>();
  for (const l of lines) {
    const m = /^from\s+torch\.nn\s+import\s+(.+)$/.exec(l.text);
    if (m) {
      if (m[1].trim() === '*') Object.keys(LAYERS).forEach((k) => bare.add(k));
      else for (const part of m[1].replace(/[()]/g, '').split(',')) { const [name, alias] = part.trim().split(/\s+as\s+/); if (LAYERS[name]) bare.add(alias ?? name); }
    }
  }
  const bareAlias = new Map<string, string>();
  for (const l of lines) {
    const m = /^from\s+torch\.nn\s+import\s+(.+)$/.exec(l.text);
    if (m && m[1].trim() !== '*') for (const part of m[1].replace(/[()]/g, '').split(',')) { const [name, alias] = part.trim().split(/\s+as\s+/); if (alias) bareAlias.set(alias, name); }
  }

  const topCalls: Call[] = [];
  const unitNames = [...units.keys()];
  const callRe = new RegExp(
    `(?<![\\w.])(?:(?:torch\\.)?nn\\.(${LAYER_NAMES})|(${[...bare, ...bareAlias.keys()].join('|') || '(?!)'})|(${unitNames.join('|') || '(?!)'}))\\s*\\(`,
    'g',
  );
  const loops: Array<{ indent: number; mult: number }> = [];
  const clones: Array<{ list: Call[]; at: number; args: string; line: number; type: string }> = [];
  lines.forEach((l, i) => {
    while (loops.length && l.indent <= loops[loops.length - 1].indent) loops.pop();
    if (/^class\s/.test(l.text)) return;
    const loopMult = loops.reduce((p, x) => p * x.mult, 1);
    const fr = /^for\s+[\w, ]+\s+in\s+range\s*\((.*)\)\s*:/.exec(l.text);
    if (fr) {
      let count = 1;
      try {
        count = rangeCount(splitArgs(fr[1]).map((p) => n(evalExpr(p), 'range')));
      } catch (e) { if (!(e instanceof Unknown)) throw e; }
      loops.push({ indent: l.indent, mult: Math.max(0, count) });
    }
    callRe.lastIndex = 0;
    let brackets: Brackets | null = null;
    const lineTarget = /^(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=()]{0,80})?=/.exec(l.text)?.[1];
    for (let m = callRe.exec(l.text); m; m = callRe.exec(l.text)) {
      const open = m.index + m[0].length - 1;
      const close = closeOf(l.text, open);
      if (close < 0) continue;
      // Only a short window before the call is searched, so a line of thousands of calls stays linear.
      const before = l.text.slice(Math.max(0, m.index - 200), m.index);
      if (/super\s*\($/.test(before) || /isinstance\s*\([^)]*$/.test(before) || /\bdef\s+$/.test(before)) continue;
      const attr = /(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=()]+)?=\s*$/.exec(before)?.[1] ?? lineTarget ?? (m[1] ?? m[2] ?? m[3]);
      let mult = loopMult;
      brackets ??= new Brackets(l.text, evalExpr);
      mult *= brackets.multiplier(m.index);
      const type = m[1] ?? (m[2] ? (bareAlias.get(m[2]) ?? m[2]) : undefined);
      const list = owner[i] ? units.get(owner[i]!)!.calls : topCalls;
      const args = l.text.slice(open + 1, close);
      if (type && CLONERS.includes(type)) {
        clones.push({ list, at: list.length, args, line: lineAt(l, m.index), type });
        continue;
      }
      list.push(type
        ? { kind: 'layer', type, attr, line: lineAt(l, m.index), args, mult }
        : { kind: 'unit', type: m[3], attr, line: lineAt(l, m.index), args, mult });
    }
  });
  // nn.TransformerEncoder(layer, num_layers) holds num_layers copies of `layer`, built once before it or inline.
  for (const c of clones) {
    const parts = splitArgs(c.args);
    const first = parts[0] ?? '';
    const layersArg = parts.find((p) => /^num_layers\s*=/.test(p))?.replace(/^num_layers\s*=\s*/, '') ?? parts.find((p, k) => k === 1 && !/^\w+\s*=/.test(p));
    let copies: number;
    try {
      copies = n(evalExpr(layersArg ?? ''), 'num_layers');
    } catch (e) {
      if (!(e instanceof Unknown)) throw e;
      return { ok: false, error: `nn.${c.type} on line ${fmt(c.line)} has a num_layers that cannot be read without running the code; use a number or a constant defined in the file.` };
    }
    const target = first.includes('(') ? c.list[c.at] : [...c.list.slice(0, c.at)].reverse().find((x) => x.attr === first.replace(/^self\./, ''));
    if (target) target.mult *= copies;
  }

  /** Binds a call's arguments to names; arguments that cannot be read are left to the constants. */
  const bind = (names: string[], args: string, scope: Scope, keep: (name: string) => boolean = () => true, unreadable?: Val): Map<string, Val> => {
    const bound = new Map<string, Val>();
    let pos = 0;
    for (const p of splitArgs(args)) {
      if (p.startsWith('*')) { pos = names.length; continue; }
      const kw = /^([A-Za-z_]\w*)\s*=(?!=)\s*(.+)$/s.exec(p);
      const name = kw ? kw[1] : names[pos++];
      if (!name || !keep(name)) continue;
      try {
        bound.set(name, evalIn(kw ? kw[2] : p, scope));
      } catch (e) {
        if (!(e instanceof Unknown)) throw e;
        if (unreadable !== undefined) bound.set(name, unreadable);
      }
    }
    return bound;
  };

  /** Elements of the tensor an nn.Parameter wraps: torch.zeros(2, 3), torch.ones((2, 3)), torch.eye(n), ... */
  const parameterElements = (args: string, scope: Scope): number => {
    const inner = splitArgs(args)[0] ?? '';
    const m = TENSOR_MAKERS.exec(inner);
    const close = m ? closeOf(inner, m[0].length - 1) : -1;
    if (!m || close < 0) throw new Unknown(inner);
    const parts = splitArgs(inner.slice(m[0].length, close)).filter((p) => !/^[A-Za-z_]\w*\s*=(?!=)/.test(p));
    if (m[1] === 'tensor') {
      const v = evalIn(parts[0] ?? '', scope);
      const count = (x: Val): number => (Array.isArray(x) ? x.reduce((t: number, y) => t + count(y), 0) : 1);
      return count(v);
    }
    if (m[1] === 'eye') return n(evalIn(parts[0], scope), 'n') * (parts[1] ? n(evalIn(parts[1], scope), 'm') : n(evalIn(parts[0], scope), 'n'));
    const dims = (m[1] === 'full' ? parts.slice(0, 1) : parts).map((p) => evalIn(p, scope));
    return dims.reduce((t: number, d) => t * (Array.isArray(d) ? d.reduce((u: number, x) => u * n(x, 'size'), 1) : n(d, 'size')), 1);
  };

  const layerParams = (c: Call, scope: Scope): number => {
    if (c.type === PARAMETER) return parameterElements(c.args, scope);
    const def = LAYERS[c.type];
    if (splitArgs(c.args).some((p) => p.startsWith('*'))) throw new Unknown(c.args);
    // Unreadable arguments only matter if the formula uses them (a dropout or activation does not).
    const given = bind(def.args, c.args, scope, (name) => def.args.includes(name), UNREADABLE);
    const v = def.count({ ...def.defaults, ...Object.fromEntries(given) });
    if (!Number.isFinite(v) || v < 0) throw new Unknown(c.type);
    return Math.round(v);
  };

  const layers: LayerCount[] = [];
  const expand = (calls: Call[], mult: number, path: string, depth: number, scope: Scope) => {
    if (depth > 32) return;
    for (const c of calls) {
      const name = path ? `${path}.${c.attr}` : c.attr;
      if (c.kind === 'layer') {
        let parameters: number;
        try {
          parameters = layerParams(c, scope);
        } catch (e) {
          if (!(e instanceof Unknown)) throw e;
          throw new Unknown(`nn.${c.type} on line ${fmt(c.line)} has a size that cannot be read without running the code (${c.args.trim().slice(0, 60)}); use numbers or constants defined in the file.`);
        }
        layers.push({ name, type: c.type, line: c.line, parameters, count: mult * c.mult });
      } else {
        const unit = units.get(c.type);
        if (!unit || c.mult <= 0) continue;
        // A function's layers sit under the name its result is given; a class's under its attribute.
        const inner: Scope = { vars: bind(unit.params, c.args, scope), unit: unit.name };
        expandUnit(unit, mult * c.mult, path ? `${path}.${c.attr}` : unit.kind === 'class' ? unit.name : c.attr, depth + 1, inner);
      }
    }
  };
  const expandUnit = (unit: Unit, mult: number, path: string, depth: number, scope: Scope) => {
    const start = layers.length;
    expand(unit.calls, mult, path, depth, scope);
    for (const [a, b] of unit.ties) {
      const mine = layers.slice(start);
      const left = mine.find((l) => l.name === `${path}.${a}`);
      const right = mine.find((l) => l.name === `${path}.${b}`);
      if (!left || !right || left.tiedTo) continue;
      // An embedding's parameters are its weight alone, so the tied weight is exactly the embedding's size.
      const shared = left.type.startsWith('Embedding') ? left.parameters : right.type.startsWith('Embedding') ? right.parameters : Math.min(left.parameters, right.parameters);
      left.parameters = Math.max(0, left.parameters - shared);
      left.tiedTo = right.name;
    }
  };

  try {
    if (topCalls.length > 0) {
      expand(topCalls, 1, '', 0, NO_SCOPE);
    } else {
      // No module-level code builds anything: every class or function no other one uses is a model.
      const used = new Set<string>();
      for (const u of units.values()) for (const c of u.calls) if (c.kind === 'unit' && c.type !== u.name) used.add(c.type);
      for (const u of units.values()) if (!used.has(u.name)) expandUnit(u, 1, u.name, 0, { vars: new Map(), unit: u.name });
    }
  } catch (e) {
    if (e instanceof Unknown) return { ok: false, error: e.message };
    throw e;
  }
  if (layers.length === 0) {
    return { ok: false, error: 'No PyTorch layers (such as nn.Linear, nn.Conv2d, nn.LSTM or nn.Embedding) were found in this file.' };
  }
  const parameters = layers.reduce((s, l) => s + l.parameters * l.count, 0);
  return { ok: true, parameters, layers };
}
