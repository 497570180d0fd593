// The key help line: every key when they fit the width, else the first ones that fit and `? more keys`.

const SEP = ' · ';
export const MORE_KEYS = '? more keys';

/** The help line for this width: all the parts joined, or as many leading parts as fit before `? more keys`. */
export function fitHelp(parts: readonly string[], width: number): { line: string; folded: boolean } {
  const all = parts.join(SEP);
  if ([...all].length <= width) return { line: all, folded: false };
  const kept: string[] = [];
  for (const part of parts) {
    const next = [...kept, part, MORE_KEYS].join(SEP);
    if ([...next].length > width) break;
    kept.push(part);
  }
  const line = [...kept, MORE_KEYS].join(SEP);
  return { line: [...line].length <= width ? line : MORE_KEYS.slice(0, Math.max(0, width)), folded: true };
}

/**
 * Every part on lines of `width` columns, a part never split across two (the `?` footer): as many parts on a line as
 * fit, then the next line. A part wider than the line is cut.
 */
export function packHelp(parts: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    const next = line ? `${line}${SEP}${part}` : part;
    if (!line || [...next].length <= width) line = next;
    else {
      lines.push(line);
      line = part;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => ([...l].length <= width ? l : [...l].slice(0, Math.max(0, width - 1)).join('') + '…'));
}

/** A screen's help text as its parts. */
export const helpParts = (text: string | null | undefined): string[] => (text ? text.split(SEP) : []);

/**
 * The screen's keys, then the app's: the menu, Esc (back, unless the screen says what Esc does there, as an open
 * form's "Esc cancel") and quitting.
 */
export function appHelp(screen: string[], auth: boolean | undefined, capture: string): string[] {
  return [
    ...screen,
    ...(auth ? [capture === 'none' ? 'Tab/Ctrl+O menu' : 'Ctrl+O menu'] : []),
    ...(screen.some((part) => part.startsWith('Esc ')) ? [] : ['Esc back']),
    capture === 'none' ? 'q quit' : 'Ctrl+C quit',
  ];
}
