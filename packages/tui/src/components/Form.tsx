// A form for Ink: text, password, checkbox and choice fields, a submit button and links; errors under each field.
// The keys are the same on every form: Tab / Shift+Tab move between fields (↑↓ too, outside a picker); Enter moves to
// the next empty required field and submits once none is left (from the last field, or any field when all are
// filled); in a picker Enter picks and moves on; typing in a picker filters it, Esc clears a picker's filter first
// and leaves only when there is nothing to clear; text fields take readline's keys (Ctrl+A/E/U/K/W); errors follow
// the values as they are typed.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Text, useInput } from 'ink';
import { printable } from '@portal/core';
import { useCapture, useNav } from '../ui/context';
import { applyInput, noKey, type TextState } from './textEdit';
import { TextView } from './TextField';

export interface FieldDef {
  key: string;
  label: string;
  kind?: 'text' | 'password' | 'checkbox' | 'select' | 'path';
  items?: { label: string; value: string }[];
  disabled?: boolean;
  placeholder?: string;
  /** A text field or picker that may stay empty: Enter does not stop at it. */
  optional?: boolean;
}

export interface FormLink {
  label: string;
  action(): void;
}

export interface FormProps {
  fields: FieldDef[];
  values: Record<string, string | boolean>;
  onChange(key: string, value: string | boolean): void;
  errors?: Record<string, string | undefined>;
  submitLabel: string;
  onSubmit(): void;
  links?: FormLink[];
  /** A message under the form (the result or the first problem). */
  message?: { text: string; error?: boolean } | null;
  busy?: boolean;
  /** Which item has the focus at first (fields, then the submit button, then the links). */
  initialFocus?: number;
  /** Tab completion for 'path' fields (Tab completes there; Enter or ↓ moves on). */
  completePath?(text: string): { text: string; matches: string[] };
  /**
   * The rules for the values as they are now (core's checks): once a field with an error is edited, its message is
   * this, so it changes or goes as the value is typed. Without it, an edited field's old message is hidden.
   */
  validate?(values: Record<string, string | boolean>): Record<string, string | undefined>;
  children?: ReactNode;
}

const isText = (f: FieldDef | undefined) =>
  !!f && (f.kind === undefined || f.kind === 'text' || f.kind === 'password' || f.kind === 'path');

export function Form(props: FormProps) {
  const nav = useNav();
  const { fields } = props;
  const links = props.links ?? [];
  const count = fields.length + 1 + links.length;
  const [at, setAtState] = useState(props.initialFocus ?? 0);
  const [cursors, setCursors] = useState<Record<string, number>>({});
  const [matches, setMatches] = useState<string[]>([]);
  // A picker's filter (what was typed while it has the focus) and its highlighted row.
  const [pick, setPickState] = useState<{ filter: TextState; hi: number }>({ filter: { value: '', cursor: 0 }, hi: -1 });
  // Submitting waits for the render that carries every value just typed (a burst can type and submit in one event).
  const [submitting, setSubmitting] = useState(0);
  // While a picker's filter holds text, Esc is the form's (it clears the filter) rather than the app's (back).
  useCapture(pick.filter.value ? 'all' : 'text');
  // The values the errors were given for: a field edited since shows its rule's message for the new value.
  const errorsFor = useRef<{ errors: FormProps['errors']; values: FormProps['values'] }>({ errors: props.errors, values: props.values });
  if (errorsFor.current.errors !== props.errors) errorsFor.current = { errors: props.errors, values: props.values };
  const live = props.validate ? props.validate(props.values) : {};
  const errorOf = (key: string): string | undefined => {
    const given = props.errors?.[key];
    if (props.values[key] === errorsFor.current.values[key]) return given;
    return given || errorsFor.current.values[key] !== undefined ? live[key] : undefined;
  };
  // Keys can come faster than renders: the handler works on the latest values, focus and cursors kept here.
  const latest = useRef({ at, values: props.values, cursors, props, pick });
  const setPick = (p: { filter: TextState; hi: number }) => {
    latest.current.pick = p;
    setPickState(p);
  };
  // hi -1: the row of the current value.
  const clearPick = () => setPick({ filter: { value: '', cursor: 0 }, hi: -1 });
  latest.current.props = props;
  latest.current.values = props.values;
  const setAt = (n: number) => {
    if (n !== latest.current.at) clearPick();
    latest.current.at = n;
    setAtState(n);
    setMatches([]);
  };
  const next = () => setAt(Math.min(count - 1, latest.current.at + 1));
  const prev = () => setAt(Math.max(0, latest.current.at - 1));
  useEffect(() => {
    if (submitting) latest.current.props.onSubmit();
  }, [submitting]);
  const submit = () => {
    nav.markSubmitted();
    setSubmitting((n) => n + 1);
  };
  /**
   * Enter in a field: to the next empty required field (after this one, then from the top), else the form is
   * submitted. Returns whether it moved (the keys typed after Enter then go to that field).
   */
  // A text field scrolls within the line its label leaves (the screen's padding, the marker, the label and ': ').
  const fieldWidth = (label: string) => Math.max(8, nav.size.columns - nav.size.menu - 2 - (label.length + 4));
  const moveOn = (): boolean => {
    const now = latest.current;
    // A text field with no text, or a picker with nothing picked (it shows its list when it has the focus).
    const empty = (i: number) => {
      const f = fields[i];
      if (i === now.at || f.disabled || f.optional || !(isText(f) || f.kind === 'select')) return false;
      return !String(now.values[f.key] ?? '').trim();
    };
    const order = fields.map((_, i) => i);
    const to = [...order.slice(now.at + 1), ...order.slice(0, now.at)].find(empty);
    if (to === undefined) {
      submit();
      return false;
    }
    setAt(to);
    return true;
  };

  useInput(
    (input, key) => {
      let rest = input;
      let k = key;
      // An event may hold keys for several fields (typed before the form was drawn): each field takes its part.
      for (let guard = 0; guard < 100; guard++) {
        const now = latest.current;
        const field = now.at < fields.length ? fields[now.at] : undefined;
        if (isText(field)) {
          if (k.upArrow) return prev();
          if (k.downArrow) return next();
          const f = field!;
          const value = String(now.values[f.key] ?? '');
          const r = applyInput({ value, cursor: now.cursors[f.key] ?? value.length }, rest, k);
          now.cursors = { ...now.cursors, [f.key]: r.state.cursor };
          setCursors(now.cursors);
          if (r.state.value !== value) {
            now.values = { ...now.values, [f.key]: r.state.value };
            now.props.onChange(f.key, r.state.value);
            setMatches([]);
          }
          if (!r.stop) return;
          if (r.stop === 'tab' && f.kind === 'path' && now.props.completePath) {
            const c = now.props.completePath(String(now.values[f.key] ?? ''));
            setMatches(c.matches);
            if (c.text !== now.values[f.key]) {
              now.values = { ...now.values, [f.key]: c.text };
              now.cursors = { ...now.cursors, [f.key]: c.text.length };
              setCursors(now.cursors);
              now.props.onChange(f.key, c.text);
            }
            return;
          }
          if (r.stop === 'backtab') prev();
          else if (r.stop === 'submit' && !moveOn()) return;
          else if (r.stop === 'tab') next();
          rest = r.rest;
          k = noKey;
          if (!rest) return;
          continue;
        }
        const inSelect = field?.kind === 'select';
        const first = rest[0];
        const tab = k.tab || first === '\t';
        const enter = k.return || first === '\r';
        if (tab && k.shift) return prev();
        if (tab) {
          next();
        } else if (!inSelect && k.downArrow) return next();
        else if (!inSelect && k.upArrow) return prev();
        else if (inSelect) {
          const shown = filtered(field, now.pick.filter.value);
          const hiNow = highlighted(shown, now.pick.hi, now.values[field.key]);
          if (enter) {
            // Enter picks the highlighted row (the current value when nothing matches) and moves on.
            const chosen = shown[hiNow];
            if (chosen) now.props.onChange(field.key, chosen.value);
            next();
          } else if (k.escape) {
            if (!now.pick.filter.value) return;
            clearPick();
            return;
          } else if (k.downArrow || k.upArrow) {
            const hi = Math.max(0, Math.min(shown.length - 1, hiNow + (k.downArrow ? 1 : -1)));
            return setPick({ ...now.pick, hi });
          } else {
            // Typing filters the picker (one key at a time, so a burst ending in Enter or Tab still picks or moves).
            const one = k === noKey ? first : rest;
            const r = applyInput(now.pick.filter, one, k === noKey ? noKey : k);
            if (r.state.value !== now.pick.filter.value || r.state.cursor !== now.pick.filter.cursor) setPick({ filter: r.state, hi: 0 });
            if (k !== noKey || rest.length <= 1) return;
            rest = rest.slice(1);
            continue;
          }
        } else if (field?.kind === 'checkbox') {
          if (first === ' ' && !field.disabled) now.props.onChange(field.key, !now.values[field.key]);
          else if (enter && !moveOn()) return;
          else return;
        } else if (now.at === fields.length && enter) return submit();
        else if (now.at > fields.length && enter) return links[now.at - fields.length - 1]?.action();
        else return;
        // Keys typed ahead after this one go on to the next item.
        rest = k === noKey || rest.length > 1 ? rest.slice(1) : '';
        k = noKey;
        if (!rest) return;
      }
    },
    { isActive: !props.busy && !nav.menuFocused },
  );

  return (
    <Box flexDirection="column">
      {fields.map((f, i) => {
        const focused = i === at && !nav.menuFocused;
        const value = props.values[f.key];
        const error = errorOf(f.key);
        return (
          <Box key={f.key} flexDirection="column">
            <Box>
              <Text color={focused ? 'cyan' : undefined}>
                {focused ? '› ' : '  '}
                {f.label}:{' '}
              </Text>
              {f.kind === 'checkbox' ? (
                <Text dimColor={f.disabled}>
                  [{value ? 'x' : ' '}]{f.disabled ? ' (not available)' : ''}
                </Text>
              ) : f.kind === 'select' ? (
                focused ? null : (
                  <Text>{f.items?.find((it) => it.value === value)?.label ?? '(none)'}</Text>
                )
              ) : (
                <>
                  <TextView
                    value={String(value ?? '')}
                    cursor={cursors[f.key] ?? String(value ?? '').length}
                    focus={focused}
                    mask={f.kind === 'password' ? '*' : undefined}
                    placeholder={f.placeholder}
                    width={fieldWidth(f.label)}
                  />
                  {focused && matches.length ? (
                    <Text dimColor>{`  ${matches.slice(0, 8).join('  ')}${matches.length > 8 ? '  …' : ''}`}</Text>
                  ) : null}
                </>
              )}
            </Box>
            {f.kind === 'select' && focused ? <Picker field={f} value={value} filter={pick.filter} hi={pick.hi} /> : null}
            {error ? <Text color="red"> {error}</Text> : null}
          </Box>
        );
      })}
      <Text color={at === fields.length ? 'cyan' : undefined} bold>
        {at === fields.length ? '› ' : '  '}[ {props.busy ? 'Working…' : props.submitLabel} ]
      </Text>
      {links.map((l, i) => (
        <Text key={l.label} color={at === fields.length + 1 + i ? 'cyan' : 'gray'}>
          {at === fields.length + 1 + i ? '› ' : '  '}
          {l.label}
        </Text>
      ))}
      {props.children}
      {props.message ? <Text color={props.message.error ? 'red' : 'green'}>{props.message.text}</Text> : null}
    </Box>
  );
}

/** A picker's rows that match the typed filter (any part of the label, any case). */
function filtered(field: FieldDef, filter: string): NonNullable<FieldDef['items']> {
  const q = filter.trim().toLowerCase();
  const items = field.items ?? [];
  return q ? items.filter((it) => it.label.toLowerCase().includes(q)) : items;
}

/** The highlighted row: the one moved to, else (-1) the current value's row, else the first. */
function highlighted(shown: NonNullable<FieldDef['items']>, hi: number, value: unknown): number {
  if (hi >= 0) return Math.min(hi, Math.max(0, shown.length - 1));
  return Math.max(
    0,
    shown.findIndex((it) => it.value === value),
  );
}

/** How many of a picker's rows show at once. */
const PICKER_ROWS = 6;

/** The focused picker: its filter, then the matching rows around the highlighted one (the current value marked ✔). */
function Picker({ field, value, filter, hi }: { field: FieldDef; value: unknown; filter: TextState; hi: number }) {
  const shown = filtered(field, filter.value);
  const at = highlighted(shown, hi, value);
  const start = Math.max(0, Math.min(at - Math.floor(PICKER_ROWS / 2), shown.length - PICKER_ROWS));
  return (
    <Box paddingLeft={4} flexDirection="column">
      {filter.value ? (
        <Box>
          <Text dimColor>Filter: </Text>
          <TextView value={filter.value} cursor={filter.cursor} focus />
          <Text dimColor> (Esc clears)</Text>
        </Box>
      ) : (field.items?.length ?? 0) > PICKER_ROWS ? (
        <Text dimColor>Type to filter</Text>
      ) : null}
      {field.items?.length ? null : <Text dimColor>(nothing to choose)</Text>}
      {field.items?.length && !shown.length ? <Text dimColor>(nothing matches)</Text> : null}
      {shown.slice(start, start + PICKER_ROWS).map((it, i) => (
        <Text key={it.value} color={start + i === at ? 'cyan' : undefined} wrap="truncate-end">
          {start + i === at ? '› ' : '  '}
          {it.label}
          {it.value === value ? ' ✔' : ''}
        </Text>
      ))}
      {shown.length > PICKER_ROWS ? (
        <Text dimColor>{`${start + 1}-${Math.min(shown.length, start + PICKER_ROWS)} of ${shown.length}`}</Text>
      ) : null}
    </Box>
  );
}

/** Label and value lines for detail screens. */
export function Fields({ rows }: { rows: ReadonlyArray<readonly [string, ReactNode]> }) {
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  return (
    <Box flexDirection="column">
      {rows.map(([k, v]) => (
        <Box key={k}>
          <Box width={width} flexShrink={0}>
            <Text bold>{k}:</Text>
          </Box>
          {typeof v === 'string' || typeof v === 'number' ? <Text>{v === '' ? '-' : printable(String(v))}</Text> : v}
        </Box>
      ))}
    </Box>
  );
}
