// The dialogs every list shares: name (create and rename, with core's title rule) and remove confirmation.
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { checkTitle, TITLE_MAX } from '@portal/core';

interface NameDialogProps {
  open: boolean;
  title: string;
  /** 'create' and 'rename' show SPEC's two different title messages. */
  mode: 'create' | 'rename';
  initial?: string;
  label?: string;
  submitLabel?: string;
  onClose(): void;
  /** Resolves to null on success (the dialog closes) or a message, shown in the dialog only (the dialog stays open). */
  onSubmit(name: string): Promise<string | null>;
}

export function NameDialog({ open, title, mode, initial = '', label = 'Name', submitLabel, onClose, onSubmit }: NameDialogProps) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setValue(initial);
      setError(null);
    }
  }, [open, initial]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const err = checkTitle(value, mode);
    setError(err);
    if (err) return;
    setBusy(true);
    try {
      const failed = await onSubmit(value.trim());
      // The dialog says what failed beside the field, and only there: no notice repeats it behind the dialog.
      if (failed) setError(failed);
      else onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="name-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="name-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            margin="dense"
            label={label}
            name="name"
            fullWidth
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={!!error}
            helperText={error ?? ' '}
            slotProps={{ htmlInput: { maxLength: TITLE_MAX } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {submitLabel ?? (mode === 'rename' ? 'Rename' : 'Create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

interface ConfirmProps {
  open: boolean;
  title: string;
  text: string;
  confirmLabel?: string;
  onClose(): void;
  onConfirm(): Promise<unknown>;
}

export function ConfirmDialog({ open, title, text, confirmLabel = 'Remove', onClose, onConfirm }: ConfirmProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onClose();
    }
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirm-dialog-title" aria-describedby="confirm-dialog-text">
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-dialog-text" sx={{ overflowWrap: 'anywhere' }}>
          {text}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Cancel
        </Button>
        <Button onClick={confirm} color="error" variant="contained" disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
