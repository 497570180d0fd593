// Text from the server made safe for a terminal: what the CLI and the terminal UI print is escaped here, so a name
// stored before the text rule (or by another client) cannot retitle a window, clear a screen or reverse a line.

import { BIDI_CONTROLS, CONTROLS } from '../rules/text';

/** Unicode's line and paragraph separators: terminals do not break on them, but editors and some viewers do. */
const SEPARATORS = '\\u2028\\u2029';
const UNSAFE = new RegExp(`[${CONTROLS}${BIDI_CONTROLS}${SEPARATORS}]`, 'g');
const UNSAFE_BUT_LF = new RegExp(`[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}${SEPARATORS}]`, 'g');
/** What JSON.stringify leaves raw that a terminal acts on (it escapes C0 itself, and the layout's LF must stay). */
const JSON_RAW = new RegExp(`[\\u007f-\\u009f${BIDI_CONTROLS}${SEPARATORS}]`, 'g');
const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');
/** `\x1b` for a C0 or C1 control and DEL, `\u202e` for a bidi control or line separator, `\n` and friends by name. */
const visible = (c: string) => NAMED[c] ?? (c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`);

/**
 * The text with every control character (C0, DEL, C1), bidi control and Unicode line separator shown as a visible
 * escape. One-line fields (names, table cells) escape line breaks too; `multiline` keeps LF for messages of several
 * lines (CR is still escaped: it would overwrite the line).
 */
export function printable(text: string, { multiline = false }: { multiline?: boolean } = {}): string {
  return text.replace(multiline ? UNSAFE_BUT_LF : UNSAFE, visible);
}

/**
 * JSON text for a terminal: `JSON.stringify` escapes C0 but leaves DEL, C1 and bidi controls raw; they are written
 * as `\u` escapes here, which is the same JSON value (they can only occur inside strings).
 */
export function printableJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(JSON_RAW, (c) => `\\u${hex(c, 4)}`);
}
