import { describe, expect, it } from 'vitest';
import { cutText, formatCell, MISSING_CELL } from './preview';
import { brailleMap, mapColouringOf, mapColourings, mapLegend } from './map';
import type { Projection } from '../contract/projection';

describe('what a preview shows', () => {
  it('formats numbers: whole ones grouped, others to 6 significant digits, extremes in e-notation, missing as a dash', () => {
    expect(formatCell(1234567)).toBe('1,234,567');
    expect(formatCell(2 / 3)).toBe('0.666667');
    expect(formatCell(0.00001234)).toBe('1.23e-5');
    expect(formatCell(null)).toBe(MISSING_CELL);
    expect(formatCell(NaN)).toBe(MISSING_CELL);
  });

  it('cuts a text to its width with an ellipsis, counting characters rather than UTF-16 units', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('a longer text', 6)).toBe('a lon…');
    expect(cutText('😀😀😀', 2)).toBe('😀…');
    expect(cutText('two\nlines', 20)).toBe('two lines');
  });
});

const map = (key: number[], keyKind: Projection['keyKind'] = 'target'): Projection => ({
  x: key.map((_, i) => i),
  y: key.map((_, i) => i % 2),
  key,
  row: key.map((_, i) => i),
  inputs: key.map(() => []),
  keyKind,
  variance: [0.8, 0.1],
  total: key.length,
});

describe('the map legend and braille', () => {
  it('gives few keys a colour each, clusters their numbers, and many keys equal ranges', () => {
    expect(mapLegend(map([1, 0, 1])).labels).toEqual(['0', '1']);
    expect(mapLegend(map([1, 0, 1])).colour).toEqual([1, 0, 1]);
    expect(mapLegend(map([0, 1], 'cluster')).labels).toEqual(['cluster 1', 'cluster 2']);
    const many = mapLegend(map(Array.from({ length: 20 }, (_, i) => i)));
    expect(many.labels).toHaveLength(5);
    expect(many.colour.at(-1)).toBe(4);
  });

  it('names the classes of a text target, and colours by any column the map carries, missing values last', () => {
    const p = { ...map([1, 0, -1, 1]), keyName: 'species', classes: ['setosa', 'virginica'] };
    const own = mapLegend(p);
    expect(own.title).toBe('species');
    expect(own.labels).toEqual(['setosa', 'virginica', 'missing']);
    expect(own.colour).toEqual([1, 0, 2, 1]);
    const withColumns = {
      ...p,
      colours: [
        { name: 'species', type: 'category' as const, key: [1, 0, null, 1], classes: ['setosa', 'virginica'] },
        { name: 'petal_width', type: 'number' as const, key: [0.2, null, 1.8, 2.1], classes: null },
        { name: 'wild', type: 'boolean' as const, key: [0, 1, 1, 0], classes: ['false', 'true'] },
      ],
    };
    expect(mapColourings(withColumns).map((c) => c.label)).toEqual(['species (target)', 'petal_width', 'wild']);
    const width = mapLegend(withColumns, 'petal_width');
    expect(width.title).toBe('petal_width');
    expect(width.labels).toEqual(['0.2', '1.8', '2.1', 'missing']);
    expect(width.colour).toEqual([0, 3, 1, 2]);
    expect(mapLegend(withColumns, 'wild').labels).toEqual(['false', 'true']);
    expect(mapLegend(withColumns, 'no such column').title).toBe('species');
    expect(mapColouringOf(withColumns, 'species')).toEqual({ column: null });
    expect(mapColouringOf(withColumns, 'wild')).toEqual({ column: 'wild' });
    expect(mapColouringOf(withColumns, 'colour')).toEqual({
      problem: 'This map cannot be coloured by "colour": choose one of "species", "petal_width", "wild".',
    });
  });

  it('draws points as braille dots in the grid asked for, each cell coloured by its points', () => {
    const cells = brailleMap(map([0, 1]), [0, 1], 4, 2);
    expect(cells).toHaveLength(2);
    expect(cells[0]).toHaveLength(4);
    const drawn = cells.flat().filter((c) => c.ch !== ' ');
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.every((c) => c.ch >= '\u2801' && c.ch <= '\u28ff')).toBe(true);
    expect(new Set(drawn.map((c) => c.colour))).toEqual(new Set([0, 1]));
  });
});
