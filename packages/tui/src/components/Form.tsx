// A form for Ink: text, password, checkbox and choice fields, a submit button and links; errors under each field.
import { useState, type ReactNode } from 'react';
import { Box, Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
import SelectInput from 'ink-select-input';
import { useCapture, useNav } from '../ui/context';

export interface FieldDef {
  key: string;
  label: string;
  kind?: 'text' | 'password' | 'checkbox' | 'select';
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
  children?: ReactNode;
}

export function Form(props: FormProps) {
  const nav = useNav();
  const { fields } = props;
  const links = props.links ?? [];
  const count = fields.length + 1 + links.length;
  const [at, setAt] = useState(props.initialFocus ?? 0);
  useCapture('text');
  const focusField = at < fields.length ? fields[at] : undefined;
  const next = () => setAt((a) => Math.min(count - 1, a + 1));
  const prev = () => setAt((a) => Math.max(0, a - 1));

  useInput(
    (input, key) => {
      const inSelect = focusField?.kind === 'select';
      if (key.tab && key.shift) return prev();
      if (key.tab) return next();
      if (!inSelect && key.downArrow) return next();
      if (!inSelect && key.upArrow) return prev();
      if (focusField?.kind === 'checkbox') {
        if (input === ' ' && !focusField.disabled) props.onChange(focusField.key, !props.values[focusField.key]);
        else if (key.return) next();
        return;
      }
      if (at === fields.length && key.return) return props.onSubmit();
      if (at > fields.length && key.return) return links[at - fields.length - 1]?.action();
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
                <TextInput
                  value={String(value ?? '')}
                  focus={focused}
                  mask={f.kind === 'password' ? '*' : undefined}
                  placeholder={f.placeholder}
                  onChange={(v) => props.onChange(f.key, v)}
                  onSubmit={() => (i === fields.length - 1 ? props.onSubmit() : next())}
                />
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
                    onSelect={(it) => {
                      props.onChange(f.key, it.value);
                      next();
                    }}
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
          {typeof v === 'string' || typeof v === 'number' ? <Text>{v === '' ? '-' : v}</Text> : v}
        </Box>
      ))}
    </Box>
  );
}
