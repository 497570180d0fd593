// Editing a line of text from Ink's key events. A burst of keys typed faster than a frame (several Backspaces, or keys
// typed before the UI was drawn) reaches Ink as one event with every key in it: each is applied in order, none lost.
import type { Key } from 'ink';

export interface TextState {
  value: string;
  cursor: number;
}

/** A key that leaves the field: Enter, Tab or Shift+Tab. */
export type Stop = 'submit' | 'tab' | 'backtab';

export interface Applied {
  state: TextState;
  stop?: Stop;
  /** What the event held after the stop key (keys typed ahead for the next field). */
  rest: string;
}

const NONE = {} as Partial<Key>;

export const noKey = NONE as Key;

/** Where the word before `cursor` starts (spaces before it belong to it), as readline's Ctrl+W counts it. */
export function wordStart(value: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(value[i - 1])) i--;
  while (i > 0 && !/\s/.test(value[i - 1])) i--;
  return i;
}

/** Applies one of Ink's input events to a text. */
export function applyInput(start: TextState, input: string, key: Partial<Key> = NONE): Applied {
  let { value, cursor } = start;
  cursor = Math.max(0, Math.min(cursor, value.length));
  const done = (stop?: Stop, rest = ''): Applied => ({ state: { value, cursor }, stop, rest });
  if (key.return) return done('submit');
  if (key.tab) return done(key.shift ? 'backtab' : 'tab');
  if (key.leftArrow) return ((cursor = Math.max(0, cursor - 1)), done());
  if (key.rightArrow) return ((cursor = Math.min(value.length, cursor + 1)), done());
  if (key.home || (key.ctrl && input === 'a')) return ((cursor = 0), done());
  if (key.end || (key.ctrl && input === 'e')) return ((cursor = value.length), done());
  // Readline's keys: Ctrl+U clears before the cursor, Ctrl+K after it, Ctrl+W deletes the word before it.
  if (key.ctrl && input === 'u') return ((value = value.slice(cursor)), (cursor = 0), done());
  if (key.ctrl && input === 'k') return ((value = value.slice(0, cursor)), done());
  if (key.ctrl && input === 'w') {
    const from = wordStart(value, cursor);
    value = value.slice(0, from) + value.slice(cursor);
    cursor = from;
    return done();
  }
  if ((key.backspace || key.delete) && !input) {
    if (cursor > 0) {
      value = value.slice(0, cursor - 1) + value.slice(cursor);
      cursor--;
    }
    return done();
  }
  if (key.ctrl || key.meta || key.escape || key.upArrow || key.downArrow || key.pageUp || key.pageDown) return done();
  const chars = [...input];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const rest = () => chars.slice(i + 1).join('');
    if (c === '\r' || c === '\n') return done('submit', rest());
    if (c === '\t') return done('tab', rest());
    if (c === '\x7f' || c === '\b') {
      if (cursor > 0) {
        value = value.slice(0, cursor - 1) + value.slice(cursor);
        cursor--;
      }
      continue;
    }
    if (c < ' ') continue;
    value = value.slice(0, cursor) + c + value.slice(cursor);
    cursor += c.length;
  }
  return done();
}
