// What the account screen's sections share: a form that Enter opens and Esc closes (so ←→ switch sections while no
// form is open), and the line that says how the last step went.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Text, useInput } from 'ink';
import { Form, type FieldDef, type FormLink } from '../../components/Form';
import { useNav } from '../../ui/context';

/** The section's form: closed until Enter (then `onOpen`), closed again by Esc or `close()`. */
export function useOpenForm(onOpen?: () => void, canOpen = true): { open: boolean; close(): void } {
  const nav = useNav();
  const [open, setOpen] = useState(false);
  const latest = useRef(onOpen);
  latest.current = onOpen;
  const { claimEscape } = nav;
  useEffect(() => (open ? claimEscape(() => setOpen(false)) : undefined), [open, claimEscape]);
  useInput(
    (_input, key) => {
      if (!key.return) return;
      setOpen(true);
      latest.current?.();
    },
    { isActive: !open && canOpen && !nav.menuFocused && nav.capture === 'none' },
  );
  return { open, close: useCallback(() => setOpen(false), []) };
}

/** The last step's problem (red) or what it did (green). */
export function Outcome({ problem, notice }: { problem?: string | null; notice?: string | null }) {
  if (problem) return <Text color="red">{problem}</Text>;
  if (notice) return <Text color="green">{notice}</Text>;
  return null;
}

/** The help line of a section whose form Enter opens. */
export const formHelp = (open: boolean, action: string): string =>
  open ? 'Tab/↑↓ fields · Enter submit · Esc cancel' : `←→ section · Enter ${action}`;

/**
 * A section's form of text fields: its values kept here, `submit` (a core hook's step) called with them; on success the
 * values are cleared and `onDone` called (the section closes the form).
 */
export function SectionForm({
  fields,
  submitLabel,
  busy,
  problem,
  submit,
  onDone,
  links,
}: {
  fields: FieldDef[];
  submitLabel: string;
  busy?: boolean;
  problem: string | null;
  submit(values: Record<string, string>): Promise<boolean | void>;
  onDone?(): void;
  links?: FormLink[];
}) {
  const empty = () => Object.fromEntries(fields.map((f) => [f.key, '']));
  const [values, setValues] = useState<Record<string, string>>(empty);
  return (
    <Form
      fields={fields}
      values={values}
      onChange={(k, v) => setValues((s) => ({ ...s, [k]: String(v) }))}
      submitLabel={submitLabel}
      busy={busy}
      links={links}
      onSubmit={() =>
        void submit(values).then((ok) => {
          if (ok === false) return;
          setValues(empty());
          onDone?.();
        })
      }
      message={problem ? { text: problem, error: true } : null}
    />
  );
}
