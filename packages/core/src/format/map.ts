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
  /** Label per colour index ('0', '1', or a range '0.5 – 1.2'). */
  labels: string[];
  /** The colour index of each point. */
  colour: number[];
}

const short = (v: number) => Number(v.toPrecision(3)).toLocaleString('en-US');

/** Few distinct keys (classes, clusters) get a colour each; many (a regression target) fall in equal ranges. */
export function mapLegend(p: Projection): MapLegend {
  const distinct = [...new Set(p.key)].sort((a, b) => a - b);
  if (distinct.length <= MAP_COLOURS.length) {
    const at = new Map(distinct.map((k, i) => [k, i]));
    const name = p.keyKind === 'cluster' ? (k: number) => `cluster ${k + 1}` : short;
    return { labels: distinct.map(name), colour: p.key.map((k) => at.get(k)!) };
  }
  const bins = 5;
  const lo = distinct[0],
    hi = distinct[distinct.length - 1];
  const w = (hi - lo) / bins;
  return {
    labels: Array.from({ length: bins }, (_, i) => `${short(lo + i * w)} – ${short(lo + (i + 1) * w)}`),
    colour: p.key.map((k) => Math.min(bins - 1, Math.floor((k - lo) / w))),
  };
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
