// The embedding map in the terminal: a braille-dot scatter, coloured where the terminal has colour, with its legend.
// The legend's labels come from the data (a target's values): escaped by core's printable, as every listing's text.
import { brailleMap, MAP_ANSI, mapLegend, printable, sampleText, varianceText, type Projection } from '@portal/core';

const paint = (text: string, code: number, colour: boolean) => (colour ? `\x1b[${code}m${text}\x1b[39m` : text);

/** The map as lines: `width` columns of dots (2 per character) and `height` lines (4 dots each), then its legend. */
export function mapLines(p: Projection, width: number, height: number, colour: boolean, colourBy: string | null = null): string[] {
  const legend = mapLegend(p, colourBy);
  const cells = brailleMap(p, legend.colour, width, height);
  const lines = cells.map((row) =>
    row
      .map((c) => (c.colour < 0 ? c.ch : paint(c.ch, MAP_ANSI[c.colour % MAP_ANSI.length], colour)))
      .join('')
      .trimEnd(),
  );
  const title = `Colour: ${printable(legend.title)}`;
  lines.push(
    '',
    `${title}  ${legend.labels.map((l, i) => `${paint('●', MAP_ANSI[i % MAP_ANSI.length], colour)} ${printable(l)}`).join('  ')}`,
  );
  lines.push(varianceText(p));
  const sample = sampleText(p);
  if (sample) lines.push(printable(sample));
  return lines;
}
