// One line of text input: every key of a burst applied in order (components/textEdit, with readline's Ctrl+A/E/U/K/W),
// a visible cursor, an optional mask, a width it scrolls within, and Tab completion when given one (upload paths).
import { useRef, useState } from 'react';
import { Text, useInput } from 'ink';
import { applyInput, type Stop } from './textEdit';

export interface TextFieldProps {
  value: string;
  onChange(value: string): void;
  onSubmit?(value: string): void;
  /** Tab (or Shift+Tab) when there is no completion. */
  onLeave?(stop: Exclude<Stop, 'submit'>): void;
  /** Tab completes with this: the new text, and the names matched when several do. */
  complete?(value: string): { text: string; matches: string[] };
  focus?: boolean;
  mask?: string;
  placeholder?: string;
  /** The columns the field may take: a longer text scrolls within them (fitLine). */
  width?: number;
}

/**
 * The cells of a line of `width` columns that show `shown` with the cursor at `at` (a cell past the end when the
 * cursor is there): the whole text when it fits, else a window that keeps the cursor in view, an ellipsis where text
 * is cut on either side. So a long path or token never wraps the screen.
 */
export function fitLine(shown: string, at: number, width?: number): { before: string; cursor: string; after: string } {
  const cells = [...shown];
  at = Math.max(0, Math.min(at, cells.length));
  if (at === cells.length) cells.push(' ');
  const w = width && width >= 3 ? width : cells.length;
  const start = cells.length <= w ? 0 : Math.max(0, Math.min(at - (w - 2), cells.length - w));
  const seen = cells.slice(start, start + w);
  if (start > 0) seen[0] = '…';
  if (start + w < cells.length) seen[w - 1] = '…';
  const i = at - start;
  return { before: seen.slice(0, i).join(''), cursor: seen[i] ?? ' ', after: seen.slice(i + 1).join('') };
}

/** Renders a value with the cursor shown as an inverse cell, in `width` columns when given (never wrapping). */
export function TextView({
  value,
  cursor,
  focus,
  mask,
  placeholder,
  width,
}: {
  value: string;
  cursor: number;
  focus: boolean;
  mask?: string;
  placeholder?: string;
  width?: number;
}) {
  const shown = mask ? mask.repeat([...value].length) : value;
  // Every key is applied to the latest text by the field (textEdit), so keys faster than renders are never lost;
  // this only draws.
  if (!focus) {
    if (!shown && placeholder)
      return (
        <Text dimColor wrap="truncate-end">
          {placeholder}
        </Text>
      );
    const { before, cursor: at, after } = fitLine(shown, 0, width);
    return <Text wrap="truncate-end">{(before + at + after).trimEnd()}</Text>;
  }
  const { before, cursor: at, after } = fitLine(shown, Math.min(cursor, shown.length), width);
  return (
    <Text wrap="truncate-end">
      {before}
      <Text inverse>{at}</Text>
      {after}
    </Text>
  );
}

export function TextField(props: TextFieldProps) {
  const [cursor, setCursor] = useState(props.value.length);
  const [matches, setMatches] = useState<string[]>([]);
  // Events can come faster than renders: the latest text and cursor live here, not in the render's closure.
  const latest = useRef({ value: props.value, cursor, props });
  if (latest.current.value !== props.value) latest.current.cursor = props.value.length;
  latest.current.value = props.value;
  latest.current.props = props;
  useInput(
    (input, key) => {
      const now = latest.current;
      const r = applyInput({ value: now.value, cursor: now.cursor }, input, key);
      now.cursor = r.state.cursor;
      if (r.state.value !== now.value) {
        now.value = r.state.value;
        now.props.onChange(r.state.value);
        setMatches([]);
      }
      setCursor(r.state.cursor);
      if (r.stop === 'submit') now.props.onSubmit?.(now.value);
      else if (r.stop === 'tab' && now.props.complete) {
        const c = now.props.complete(now.value);
        setMatches(c.matches);
        if (c.text !== now.value) {
          now.value = c.text;
          now.cursor = c.text.length;
          setCursor(c.text.length);
          now.props.onChange(c.text);
        }
      } else if (r.stop) now.props.onLeave?.(r.stop);
    },
    { isActive: props.focus !== false },
  );
  return (
    <>
      <TextView
        value={props.value}
        cursor={cursor}
        focus={props.focus !== false}
        mask={props.mask}
        placeholder={props.placeholder}
        width={props.width}
      />
      {matches.length ? <Text dimColor>{`  ${matches.slice(0, 8).join('  ')}${matches.length > 8 ? '  …' : ''}`}</Text> : null}
    </>
  );
}
