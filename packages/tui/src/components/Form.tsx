// A form for Ink: text, password, checkbox and choice fields, a submit button and links; errors under each field.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Text, useInput } from 'ink';
import SelectInput from 'ink-select-input';
import { printable } from '@portal/core';
import { useCapture, useNav } from '../ui/context';
import { applyInput, noKey } from './textEdit';
import { TextView } from './TextField';

export interface FieldDef {
  key: string;
  label: string;
  kind?: 'text' | 'password' | 'checkbox' | 'select' | 'path';
  items?: { label: string; value: string }[];
  disabled?: boolean;
  placeholder?: string;
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
  // Submitting waits for the render that carries every value just typed (a burst can type and submit in one event).
  const [submitting, setSubmitting] = useState(0);
  useCapture('text');
  // Keys can come faster than renders: the handler works on the latest values, focus and cursors kept here.
  const latest = useRef({ at, values: props.values, cursors, props });
  latest.current.props = props;
  latest.current.values = props.values;
  const setAt = (n: number) => {
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
          else if (r.stop === 'submit' && now.at === fields.length - 1) return submit();
          else next();
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
        else if (inSelect && enter) next();
        else if (field?.kind === 'checkbox') {
          if (first === ' ' && !field.disabled) now.props.onChange(field.key, !now.values[field.key]);
          else if (enter) next();
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
        const error = props.errors?.[f.key];
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
                  />
                  {focused && matches.length ? (
                    <Text dimColor>{`  ${matches.slice(0, 8).join('  ')}${matches.length > 8 ? '  …' : ''}`}</Text>
                  ) : null}
                </>
              )}
            </Box>
            {f.kind === 'select' && focused ? (
              <Box paddingLeft={4}>
                {f.items?.length ? (
                  <SelectInput
                    items={f.items}
                    initialIndex={Math.max(
                      0,
                      f.items.findIndex((it) => it.value === value),
                    )}
                    // Enter also reaches the form's own handler, which moves on (one place, whichever runs first).
                    onSelect={(it) => props.onChange(f.key, it.value)}
                  />
                ) : (
                  <Text dimColor>(nothing to choose)</Text>
                )}
              </Box>
            ) : null}
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
