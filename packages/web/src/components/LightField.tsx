// A labelled outlined text input without TextField's select machinery (menus, popovers), so the login page stays small.
import { useId } from 'react';
import { FormControl, FormHelperText, InputLabel, OutlinedInput, type OutlinedInputProps } from '@mui/material';

export interface LightFieldProps extends Omit<OutlinedInputProps, 'label' | 'error'> {
  label: string;
  error?: string | null;
}

export function LightField({ label, error, required, fullWidth = true, ...input }: LightFieldProps) {
  const id = useId();
  return (
    <FormControl variant="outlined" fullWidth={fullWidth} required={required} error={!!error}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput id={id} label={label} aria-describedby={error ? `${id}-help` : undefined} {...input} />
      {error && <FormHelperText id={`${id}-help`}>{error}</FormHelperText>}
    </FormControl>
  );
}
