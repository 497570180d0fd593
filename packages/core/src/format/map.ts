// The embedding map as both doors draw it: a legend over the colour key, a point's colour index, and the braille
// scatter the terminal prints (each character a 2×4 grid of dots).
import type { Projection } from '../contract/projection';

/** Colours of the map's legend, in order (distinct on dark paper and in 16-colour terminals). */
export const MAP_COLOURS = ['#4db6ac', '#ffb74d', '#ba68c8', '#81d4fa', '#e57373', '#aed581', '#f06292', '#fff176'] as const;
/** Terminal colours (ANSI 16-colour codes) in the same order. */
export const MAP_ANSI = [36, 33, 35, 34, 31, 32, 95, 93] as const;
/**
 * The terminal height (rows) from which the request screen draws the map under its other lines (the map takes 9);
 * below it the screen names the command that draws it instead.
 */
export const MAP_MIN_ROWS = 40;

export interface MapLegend {
  /** What the colours show: the target's or a column's name, or 'cluster'. */
  title: string;
  /** Label per colour index (a class name, '0', 'cluster 1', a range '0.5 – 1.2', or 'missing'). */
  labels: string[];
  /** The colour index of each point. */
  colour: number[];
}

/** What a map can be coloured by: its own key (the target, or the clusters) first, then each column the worker sent. */
export interface MapColouring {
  /** null: the map's own key. */
  column: string | null;
  label: string;
}

const ownTitle = (p: Projection) => (p.keyKind === 'cluster' ? 'cluster' : (p.keyName ?? 'target'));

export function mapColourings(p: Projection): MapColouring[] {
  const own = ownTitle(p);
  const others = (p.colours ?? []).filter((c) => c.name !== p.keyName).map((c) => ({ column: c.name, label: c.name }));
  return [{ column: null, label: p.keyKind === 'cluster' ? 'cluster' : `${own} (target)` }, ...others];
}

/**
 * A colouring asked for by name (`portal runs map --colour-by NAME`): the target's name or 'cluster' is the map's own
 * key; another name must be one of the columns the map carries, else a sentence names those it does.
 */
export function mapColouringOf(p: Projection, name: string): { column: string | null } | { problem: string } {
  if (name === ownTitle(p)) return { column: null };
  const found = mapColourings(p).find((c) => c.column === name);
  if (found) return { column: found.column };
  const names = [ownTitle(p), ...mapColourings(p).flatMap((c) => (c.column === null ? [] : [c.column]))];
  return { problem: `This map cannot be coloured by "${name}": choose one of ${names.map((n) => `"${n}"`).join(', ')}.` };
}

const short = (v: number) => Number(v.toPrecision(3)).toLocaleString('en-US');

/**
 * The legend of the map coloured by its own key (`column` null or unknown) or by one of its columns: class names
 * when the key is a class, a colour each for few distinct values, equal ranges for many; points with no value fall
 * under a last label, 'missing'.
 */
export function mapLegend(p: Projection, column: string | null = null): MapLegend {
  const chosen = column === null ? undefined : p.colours?.find((c) => c.name === column);
  const title = chosen ? chosen.name : ownTitle(p);
  const classes = chosen ? chosen.classes : (p.classes ?? null);
  // The own key marks a missing target with -1 (a class index or a value can be 0 and up only when classes are named).
  const keys: (number | null)[] = chosen ? chosen.key : p.key.map((k) => (classes && k < 0 ? null : k));
  const present = keys.filter((k): k is number => k !== null);
  const withMissing = (legend: { labels: string[]; colour: (k: number) => number }): MapLegend => {
    const missing = keys.some((k) => k === null);
    const labels = missing ? [...legend.labels, 'missing'] : legend.labels;
    return { title, labels, colour: keys.map((k) => (k === null ? labels.length - 1 : legend.colour(k))) };
  };
  if (classes) return withMissing({ labels: classes, colour: (k) => k });
  const distinct = [...new Set(present)].sort((a, b) => a - b);
  if (distinct.length <= MAP_COLOURS.length) {
    const at = new Map(distinct.map((k, i) => [k, i]));
    const name = !chosen && p.keyKind === 'cluster' ? (k: number) => `cluster ${k + 1}` : short;
    return withMissing({ labels: distinct.map(name), colour: (k) => at.get(k)! });
  }
  const bins = 5;
  const lo = distinct[0],
    hi = distinct[distinct.length - 1];
  const w = (hi - lo) / bins;
  return withMissing({
    labels: Array.from({ length: bins }, (_, i) => `${short(lo + i * w)} – ${short(lo + (i + 1) * w)}`),
    colour: (k) => Math.min(bins - 1, Math.floor((k - lo) / w)),
  });
}

/** The axes' shares of variance as the map's caption says them. */
export const varianceText = (p: Projection) =>
  `Horizontal axis explains ${Math.round(p.variance[0] * 100)}% of the variance, vertical ${Math.round(p.variance[1] * 100)}%`;

/** Said under a map that shows a sample. */
export const sampleText = (p: Projection) =>
  p.total > p.x.length
    ? `Showing an even sample of ${p.x.length.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} points.`
    : null;

/** A braille cell: its character and the colour index of the most points in it (-1 when empty). */
export interface BrailleCell {
  ch: string;
  colour: number;
}

const DOT = [
  [0x01, 0x08],
  [0x02, 0x10],
  [0x04, 0x20],
  [0x40, 0x80],
];

/** The map as `rows` lines of `cols` braille characters (north up: larger y on top). */
export function brailleMap(p: Projection, colour: readonly number[], cols: number, rows: number): BrailleCell[][] {
  const minX = Math.min(...p.x),
    maxX = Math.max(...p.x),
    minY = Math.min(...p.y),
    maxY = Math.max(...p.y);
  const dotsW = cols * 2,
    dotsH = rows * 4;
  const bits = new Uint8Array(cols * rows);
  const votes = new Map<number, number[]>();
  for (let i = 0; i < p.x.length; i++) {
    const dx = maxX > minX ? Math.min(dotsW - 1, Math.floor(((p.x[i] - minX) / (maxX - minX)) * dotsW)) : dotsW >> 1;
    const dy = maxY > minY ? Math.min(dotsH - 1, Math.floor(((maxY - p.y[i]) / (maxY - minY)) * dotsH)) : dotsH >> 1;
    const cell = (dy >> 2) * cols + (dx >> 1);
    bits[cell] |= DOT[dy & 3][dx & 1];
    const v = votes.get(cell) ?? [];
    v[colour[i]] = (v[colour[i]] ?? 0) + 1;
    votes.set(cell, v);
  }
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => {
      const cell = r * cols + c;
      const v = votes.get(cell);
      let best = -1;
      if (v) v.forEach((n, k) => (best < 0 || n > (v[best] ?? 0) ? (best = k) : undefined));
      return { ch: bits[cell] ? String.fromCharCode(0x2800 + bits[cell]) : ' ', colour: best };
    }),
  );
}
