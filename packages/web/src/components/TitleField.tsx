// The title input of every create form: at most SPEC's 60 characters, the rule's message under it.
import { TextField } from '@mui/material';
import { TITLE_MAX } from '@portal/core';

export function TitleField(props: { label: string; value: string; onChange(value: string): void; error?: string | null }) {
  return (
    <TextField
      label={props.label}
      name="name"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={!!props.error}
      helperText={props.error ?? ' '}
      required
      fullWidth
      autoFocus
      slotProps={{ htmlInput: { maxLength: TITLE_MAX } }}
    />
  );
}
