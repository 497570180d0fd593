// A static reading of a PyTorch model's .py source: finds nn layer constructions in classes and module code,
// evaluates their sizes from literals and simple constants, and counts parameters, without running the file.
// Reading the text is pysource.ts, evaluating sizes pyexpr.ts, the layer formulas and size rules pylayers.ts.
import { Expr, Unknown, type Val } from './pyexpr';
import { CLONERS, count as countOf, LAYERS, NN_NAMES, PARAMETER, rangeCount, size, SizeError, TENSOR_MAKERS, UNREADABLE } from './pylayers';
import { Brackets, closeOf, lineAt, logicalLines, splitArgs, stripCode } from './pysource';

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

interface Call {
  kind: 'layer' | 'unit';
  type: string;
  attr: string;
  line: number;
  args: string;
  mult: number;
}

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

/** Definitions of one name tried when evaluating it. */
const MAX_DEFINITIONS = 32;
/** Layers and class or function instances a model may expand to; real models have hundreds (GPT-2: about 150). */
export const MAX_LAYERS = 20_000;
/** Classes nest at most this deep (a real model, a few levels). */
const MAX_NESTING = 32;

/** A sentence for the user about the model file, thrown from anywhere in the reading. */
class ModelError extends Error {}

export function readPyModel(source: string): ModelReading {
  try {
    return read(source);
  } catch (e) {
    if (e instanceof ModelError) return { ok: false, error: e.message };
    throw e;
  }
}

function read(source: string): ModelReading {
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
    if (c) {
      units.set(c[1], { name: c[1], kind: 'class', params: [], calls: [], ties: [] });
      current = { name: c[1], indent: l.indent };
    } else if (d) {
      units.set(d[1], { name: d[1], kind: 'def', params: paramNames(d[2]), calls: [], ties: [] });
      current = { name: d[1], indent: l.indent };
    }
  }
  // Constants: assignments (module, class, self.x) and def parameter defaults, remembered with the unit
  // they are written in, so each class's `self.dim` is its own.
  interface Const {
    expr: string;
    unit: string | null;
  }
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
  interface Scope {
    vars: ReadonlyMap<string, Val>;
    unit: string | null;
  }
  const NO_SCOPE: Scope = { vars: new Map(), unit: null };
  const resolving = new Set<string>();
  // Each name is evaluated once per scope: constants that build on each other twice (a1 = a0 + a0, ...)
  // would otherwise cost 2^n evaluations.
  type Found = { found: true; value: Val } | { found: false };
  const known = new WeakMap<Scope, Map<string, Found>>();
  const lookupIn = (scope: Scope) => {
    let cache = known.get(scope);
    if (!cache) known.set(scope, (cache = new Map()));
    const memo = cache;
    const tryConsts = (key: string, ownOnly: boolean): Found => {
      const ck = `${ownOnly ? 'own' : 'any'}\u0000${key}`;
      const hit = memo.get(ck);
      if (hit) return hit;
      const all = consts.get(key);
      const rk = `${scope.unit ?? ''}\u0000${key}`;
      if (!all || resolving.has(rk)) return { found: false };
      const rank = (c: Const) => (c.unit === scope.unit ? 0 : c.unit === null ? 1 : 2);
      // A real model defines a name a few times; trying a bounded number keeps a file of thousands cheap.
      const ordered = all
        .filter((c) => !ownOnly || c.unit === scope.unit)
        .sort((x, y) => rank(x) - rank(y))
        .slice(0, MAX_DEFINITIONS);
      let result: Found = { found: false };
      resolving.add(rk);
      try {
        for (const c of ordered) {
          try {
            result = { found: true, value: Expr.eval(c.expr, lookup) };
            break;
          } catch (err) {
            if (!(err instanceof Unknown)) throw err;
          }
        }
      } finally {
        resolving.delete(rk);
      }
      memo.set(ck, result);
      return result;
    };
    const lookup = (name: string): Val => {
      if (name.startsWith('self.')) {
        const own = tryConsts(name, true);
        if (own.found) return own.value;
      }
      const keys = [name, name.replace(/^self\./, ''), name.split('.').pop()!];
      for (const key of keys) if (scope.vars.has(key)) return scope.vars.get(key)!;
      for (const key of keys) {
        const r = tryConsts(key, false);
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
      else
        for (const part of m[1].replace(/[()]/g, '').split(',')) {
          const [name, alias] = part.trim().split(/\s+as\s+/);
          if (LAYERS[name]) bare.add(alias ?? name);
        }
    }
  }
  const bareAlias = new Map<string, string>();
  for (const l of lines) {
    const m = /^from\s+torch\.nn\s+import\s+(.+)$/.exec(l.text);
    if (m && m[1].trim() !== '*')
      for (const part of m[1].replace(/[()]/g, '').split(',')) {
        const [name, alias] = part.trim().split(/\s+as\s+/);
        if (alias) bareAlias.set(alias, name);
      }
  }

  const topCalls: Call[] = [];
  // Any name followed by "(", then looked up: one regex of every class name would cost that many tries per
  // character in a file of thousands of classes.
  const callRe = /(?<![\w.])((?:torch\.)?nn\.)?([A-Za-z_]\w*)\s*\(/g;
  const kindOf = (m: RegExpExecArray): { type: string; unit: boolean } | null => {
    if (m[1]) return NN_NAMES.has(m[2]) ? { type: m[2], unit: false } : null;
    if (bare.has(m[2]) || bareAlias.has(m[2])) return { type: bareAlias.get(m[2]) ?? m[2], unit: false };
    return units.has(m[2]) ? { type: m[2], unit: true } : null;
  };
  /** What range(args) on line `line` yields; null when its arguments need running code. */
  const rangeOn = (args: string, line: number): number | null => {
    let parts: Val[];
    try {
      parts = splitArgs(args).map((p) => evalExpr(p));
    } catch (e) {
      if (!(e instanceof Unknown)) throw e;
      return null;
    }
    try {
      return rangeCount(parts);
    } catch (e) {
      if (e instanceof SizeError)
        throw new ModelError(`range on line ${fmt(line)} has ${e.found} in "range(${args.trim().slice(0, 60)})"; ${e.rule}.`);
      if (!(e instanceof Unknown)) throw e;
      return null;
    }
  };
  const loops: Array<{ indent: number; mult: number }> = [];
  const clones: Array<{ list: Call[]; at: number; args: string; line: number; type: string }> = [];
  lines.forEach((l, i) => {
    while (loops.length && l.indent <= loops[loops.length - 1].indent) loops.pop();
    if (/^class\s/.test(l.text)) return;
    const loopMult = loops.reduce((p, x) => p * x.mult, 1);
    const fr = /^for\s+[\w, ]+\s+in\s+range\s*\((.*)\)\s*:/.exec(l.text);
    if (fr) loops.push({ indent: l.indent, mult: rangeOn(fr[1], l.line) ?? 1 });
    callRe.lastIndex = 0;
    let brackets: Brackets | null = null;
    const lineTarget = /^(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=()]{0,80})?=/.exec(l.text)?.[1];
    for (let m = callRe.exec(l.text); m; m = callRe.exec(l.text)) {
      const kind = kindOf(m);
      if (!kind) continue;
      const open = m.index + m[0].length - 1;
      brackets ??= new Brackets(l.text, (args, at) => rangeOn(args, lineAt(l, at)));
      const close = brackets.close(open);
      if (close < 0) continue;
      // Only a short window before the call is searched, so a line of thousands of calls stays linear.
      const before = l.text.slice(Math.max(0, m.index - 200), m.index);
      if (/super\s*\($/.test(before) || /isinstance\s*\([^)]*$/.test(before) || /\bdef\s+$/.test(before)) continue;
      const attr = /(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=()]+)?=\s*$/.exec(before)?.[1] ?? lineTarget ?? m[2];
      const mult = loopMult * brackets.multiplier(m.index);
      const list = owner[i] ? units.get(owner[i]!)!.calls : topCalls;
      const args = l.text.slice(open + 1, close);
      const line = lineAt(l, m.index);
      if (!kind.unit && CLONERS.includes(kind.type)) {
        clones.push({ list, at: list.length, args, line, type: kind.type });
        continue;
      }
      list.push({ kind: kind.unit ? 'unit' : 'layer', type: kind.type, attr, line, args, mult });
    }
  });
  // nn.TransformerEncoder(layer, num_layers) holds num_layers copies of `layer`, built once before it or inline.
  for (const c of clones) {
    const parts = splitArgs(c.args);
    const first = parts[0] ?? '';
    const layersArg =
      parts.find((p) => /^num_layers\s*=/.test(p))?.replace(/^num_layers\s*=\s*/, '') ??
      parts.find((p, k) => k === 1 && !/^\w+\s*=/.test(p));
    let copies: number;
    try {
      copies = countOf(evalExpr(layersArg ?? ''), 'num_layers', 0);
    } catch (e) {
      if (e instanceof SizeError) throw new ModelError(`nn.${c.type} on line ${fmt(c.line)} has ${e.found}; ${e.rule}.`);
      if (!(e instanceof Unknown)) throw e;
      throw new ModelError(
        `nn.${c.type} on line ${fmt(c.line)} has a num_layers that cannot be read without running the code; use a number or a constant defined in the file.`,
      );
    }
    const target = first.includes('(')
      ? c.list[c.at]
      : [...c.list.slice(0, c.at)].reverse().find((x) => x.attr === first.replace(/^self\./, ''));
    if (target) target.mult *= copies;
  }

  /** Binds a call's arguments to names; arguments that cannot be read are left to the constants. */
  const bind = (
    names: string[],
    args: string,
    scope: Scope,
    keep: (name: string) => boolean = () => true,
    unreadable?: Val,
  ): Map<string, Val> => {
    const bound = new Map<string, Val>();
    let pos = 0;
    for (const p of splitArgs(args)) {
      if (p.startsWith('*')) {
        pos = names.length;
        continue;
      }
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
      const elements = (x: Val): number => (Array.isArray(x) ? x.reduce((t: number, y) => t + elements(y), 0) : 1);
      return elements(v);
    }
    if (m[1] === 'eye') {
      const rows = size(evalIn(parts[0] ?? '', scope), 'n');
      return rows * (parts[1] ? size(evalIn(parts[1], scope), 'm') : rows);
    }
    const dims = (m[1] === 'full' ? parts.slice(0, 1) : parts).map((p) => evalIn(p, scope));
    return dims.reduce((t: number, d) => t * (Array.isArray(d) ? d.reduce((u: number, x) => u * size(x, 'size'), 1) : size(d, 'size')), 1);
  };

  const layerParams = (c: Call, scope: Scope): number => {
    if (c.type === PARAMETER) return parameterElements(c.args, scope);
    const def = LAYERS[c.type];
    if (splitArgs(c.args).some((p) => p.startsWith('*'))) throw new Unknown(c.args);
    // Unreadable arguments only matter if the formula uses them (a dropout or activation does not).
    const given = bind(def.args, c.args, scope, (name) => def.args.includes(name), UNREADABLE);
    return def.count({ ...def.defaults, ...Object.fromEntries(given) });
  };

  const layers: LayerCount[] = [];
  let instances = 0;
  const expanding: string[] = [];
  const expand = (calls: Call[], mult: number, path: string, scope: Scope) => {
    for (const c of calls) {
      const name = path ? `${path}.${c.attr}` : c.attr;
      if (++instances > MAX_LAYERS) {
        throw new ModelError(
          `This model expands to more than ${fmt(MAX_LAYERS)} layers and class instances; a file that builds that many cannot be read statically.`,
        );
      }
      if (c.kind === 'layer') {
        const quote = `"nn.${c.type}(${c.args.trim().slice(0, 60)}${c.args.trim().length > 60 ? '...' : ''})"`;
        let parameters: number;
        try {
          parameters = layerParams(c, scope);
        } catch (e) {
          if (e instanceof SizeError) throw new ModelError(`nn.${c.type} on line ${fmt(c.line)} has ${e.found} in ${quote}; ${e.rule}.`);
          if (!(e instanceof Unknown)) throw e;
          throw new ModelError(
            `nn.${c.type} on line ${fmt(c.line)} has a size that cannot be read without running the code (${c.args.trim().slice(0, 60)}); use numbers or constants defined in the file.`,
          );
        }
        layers.push({ name, type: c.type, line: c.line, parameters, count: mult * c.mult });
      } else {
        const unit = units.get(c.type);
        if (!unit || c.mult <= 0) continue;
        if (expanding.includes(unit.name)) {
          throw new ModelError(
            `${unit.name} on line ${fmt(c.line)} builds itself (directly or through other classes), so the model never finishes building.`,
          );
        }
        if (expanding.length >= MAX_NESTING) {
          throw new ModelError(
            `${unit.name} on line ${fmt(c.line)} nests classes more than ${MAX_NESTING} levels deep; a model this deep cannot be read statically.`,
          );
        }
        // A function's layers sit under the name its result is given; a class's under its attribute.
        const inner: Scope = { vars: bind(unit.params, c.args, scope), unit: unit.name };
        expandUnit(unit, mult * c.mult, path ? `${path}.${c.attr}` : unit.kind === 'class' ? unit.name : c.attr, inner);
      }
    }
  };
  const expandUnit = (unit: Unit, mult: number, path: string, scope: Scope) => {
    const start = layers.length;
    expanding.push(unit.name);
    expand(unit.calls, mult, path, scope);
    expanding.pop();
    if (unit.ties.length === 0) return;
    const mine = new Map<string, LayerCount>();
    for (let k = start; k < layers.length; k++) if (!mine.has(layers[k].name)) mine.set(layers[k].name, layers[k]);
    for (const [a, b] of unit.ties) {
      const left = mine.get(`${path}.${a}`);
      const right = mine.get(`${path}.${b}`);
      if (!left || !right || left.tiedTo || left === right) continue;
      // An embedding's parameters are its weight alone, so the tied weight is exactly the embedding's size.
      const shared = left.type.startsWith('Embedding')
        ? left.parameters
        : right.type.startsWith('Embedding')
          ? right.parameters
          : Math.min(left.parameters, right.parameters);
      left.parameters = Math.max(0, left.parameters - shared);
      left.tiedTo = right.name;
    }
  };

  if (topCalls.length > 0) {
    expand(topCalls, 1, '', NO_SCOPE);
  } else {
    // No module-level code builds anything: every class or function no other one uses is a model.
    const used = new Set<string>();
    for (const u of units.values()) for (const c of u.calls) if (c.kind === 'unit' && c.type !== u.name) used.add(c.type);
    const roots = [...units.values()].filter((u) => !used.has(u.name));
    // Classes that only build each other have no root: reading them all names the cycle.
    for (const u of roots.length ? roots : units.values()) expandUnit(u, 1, u.name, { vars: new Map(), unit: u.name });
  }
  if (layers.length === 0) {
    return { ok: false, error: 'No PyTorch layers (such as nn.Linear, nn.Conv2d, nn.LSTM or nn.Embedding) were found in this file.' };
  }
  return { ok: true, parameters: total(layers), layers };
}

/**
 * The parameters of all layers: every term is a product of validated sizes and counts, so none is negative;
 * the sum is exact while it stays within 2^53 (each term and partial sum is then an exact integer), and a
 * model beyond that is refused rather than rounded.
 */
function total(layers: LayerCount[]): number {
  let sum = 0;
  for (const l of layers) {
    const term = l.parameters * l.count;
    if (
      !Number.isSafeInteger(l.parameters) ||
      !Number.isSafeInteger(l.count) ||
      l.parameters < 0 ||
      l.count < 0 ||
      !Number.isSafeInteger(term)
    )
      return tooMany();
    sum += term;
    if (!Number.isSafeInteger(sum)) return tooMany();
  }
  return sum;
}

function tooMany(): never {
  throw new ModelError(`This model has more than ${fmt(Number.MAX_SAFE_INTEGER)} parameters, far beyond what shrink accepts.`);
}
