// One line of text input: every key of a burst applied in order (components/textEdit), a visible cursor, an optional
// mask, and Tab completion when given one (paths in the upload fields).
import { useRef, useState } from 'react';
import { Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
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
}

/** Not editing: ink-text-input only draws the value. */
const ignoreEdit = () => {};

/** Renders a value with the cursor shown as an inverse cell. */
export function TextView({
  value,
  cursor,
  focus,
  mask,
  placeholder,
}: {
  value: string;
  cursor: number;
  focus: boolean;
  mask?: string;
  placeholder?: string;
}) {
  const shown = mask ? mask.repeat(value.length) : value;
  // A field not being edited is drawn by ink-text-input (value, mask, dimmed placeholder). Editing is not left to it: it
  // builds each key's text from the value of its last render, so keys arriving faster than renders (a burst of
  // Backspace, a pasted or typed-ahead password) were lost; the field below applies every key to the latest text.
  if (!focus)
    return <TextInput value={value} onChange={ignoreEdit} focus={false} showCursor={false} mask={mask} placeholder={placeholder} />;
  const at = Math.min(cursor, shown.length);
  return (
    <Text>
      {shown.slice(0, at)}
      <Text inverse>{shown[at] ?? ' '}</Text>
      {shown.slice(at + 1)}
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
      <TextView value={props.value} cursor={cursor} focus={props.focus !== false} mask={props.mask} placeholder={props.placeholder} />
      {matches.length ? <Text dimColor>{`  ${matches.slice(0, 8).join('  ')}${matches.length > 8 ? '  …' : ''}`}</Text> : null}
    </>
  );
}
