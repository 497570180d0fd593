// The failure line at the top of a form (a refused call, in SPEC's words): announced at once to screen readers.
import { Alert } from '@mui/material';

export function FormFailure({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert severity="error" role="alert">
      {message}
    </Alert>
  );
}
