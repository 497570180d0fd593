// The submit and Cancel buttons under a request form: the submit label turns into 'Creating…' while the call runs.
import { Button, Stack } from '@mui/material';

export function FormActions({ label, busy, onCancel }: { label: string; busy: boolean; onCancel: () => void }) {
  return (
    <Stack direction="row" spacing={1} sx={{ pt: 2 }}>
      <Button type="submit" variant="contained" size="large" disabled={busy}>
        {busy ? 'Creating…' : label}
      </Button>
      <Button onClick={onCancel}>Cancel</Button>
    </Stack>
  );
}
