// A form's fields held in one state (useFields), and a text field bound to one of them (its value and its setter)
// with that field's message, else its hint, below it: the form dialogs', the password pages' and the create forms'.
import { useState } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';

/** A form's fields; `set` changes some of them, `reset` all. */
export function useFields<F extends object>(initial: F) {
  const [fields, reset] = useState(initial);
  const set = (patch: Partial<F>) => reset((f) => ({ ...f, ...patch }));
  return { fields, set, reset };
}

type BoundForm<F extends object> = Pick<ReturnType<typeof useFields<F>>, 'fields' | 'set'>;

type BoundFieldProps<F extends object> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'helperText'> & {
  form: BoundForm<F>;
  /** The form's field it shows and sets. */
  name: Extract<keyof F, string>;
  /** Its message: shown below it in red; else `hint`. */
  problem?: string | null;
  hint?: string;
  maxLength?: number;
};

export function BoundField<F extends object>({ form, name, problem, hint, maxLength, ...rest }: BoundFieldProps<F>) {
  return (
    <TextField
      fullWidth
      name={name}
      value={form.fields[name]}
      onChange={(e) => form.set({ [name]: e.target.value } as Partial<F>)}
      error={!!problem}
      helperText={problem ?? hint}
      slotProps={maxLength ? { htmlInput: { maxLength } } : undefined}
      {...rest}
    />
  );
}
