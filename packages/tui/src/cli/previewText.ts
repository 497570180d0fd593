// An upload preview as plain text that fits the terminal's width (80 columns unless told): the first rows, each
// column's statistics with a histogramLine histogram, a text upload's texts with lengths, a model's layers. Every
// text the upload brought (column names, cells, texts, layer names) passes core's printable escaping before it is cut,
// as every other listing's does: a file cannot drive the terminal it is previewed on.
import { columnSummary, cutText, formatCell, previewSummary, histogramLine, printable, type UploadPreview } from '@portal/core';

/** Text from the upload, escaped, then cut to `max` characters. */
const shown = (text: string, max: number) => cutText(printable(text), max);

/** Widest a table cell gets before it is cut. */
const CELL_MAX = 12;

/** Columns padded to their widths and joined by two spaces, the last one unpadded. */
function lines(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** The first rows, with as many columns as fit in `width`. */
function rowsTable(p: UploadPreview, width: number): string[] {
  const index = p.rows.map((_, i) => String(i + 1));
  const cols = p.columns.map((c, i) => [shown(c.name, CELL_MAX), ...p.rows.map((r) => shown(formatCell(r[i]), CELL_MAX))]);
  let used = Math.max(1, ...index.map((s) => s.length));
  let fit = 0;
  for (const col of cols) {
    const w = Math.max(...col.map((s) => s.length));
    if (used + 2 + w > width) break;
    used += 2 + w;
    fit++;
  }
  const out = lines([
    ['#', ...cols.slice(0, fit).map((c) => c[0].toUpperCase())],
    ...index.map((n, r) => [n, ...cols.slice(0, fit).map((c) => c[r + 1])]),
  ]);
  const hidden = (p.totalCols ?? cols.length) - fit;
  if (hidden > 0) out.push(`(${hidden} more column${hidden === 1 ? '' : 's'} not shown here; --json has every shown column)`);
  return out;
}

function statsTable(p: UploadPreview): string[] {
  return lines([
    ['COLUMN', 'TYPE', 'MIN', 'MAX', 'MEAN', 'MISSING', 'HISTOGRAM'],
    ...p.columns.map((c) => [shown(c.name, CELL_MAX), ...columnSummary(c).map(([, v]) => shown(v, 10)), histogramLine(c.histogram)]),
  ]);
}

export function renderPreview(p: UploadPreview, width = 80): string {
  const out: string[] = [];
  const head = previewSummary(p);
  if (head) out.push(printable(head));
  if (p.note) out.push(printable(p.note));
  if (p.kind === 'table') {
    out.push('', ...rowsTable(p, width), '', ...statsTable(p));
  } else if (p.kind === 'texts') {
    const room = Math.max(10, width - 14);
    out.push('', ...lines([['#', 'LENGTH', 'TEXT'], ...p.texts.map((t, i) => [String(i + 1), formatCell(t.length), shown(t.text, room)])]));
    out.push('', ...statsTable(p));
  } else if (p.kind === 'model' && p.model) {
    const layers = p.model.layers.map((l) => [shown(l.name, 36), shown(l.type, 16), formatCell(l.parameters), formatCell(l.count)]);
    out.push('', ...lines([['LAYER', 'TYPE', 'PARAMETERS', 'COUNT'], ...layers]));
  }
  return out.map((l) => cutText(l, width)).join('\n') + '\n';
}
