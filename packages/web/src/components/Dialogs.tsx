// The dialogs every list shares: name (create and rename, with core's title rule) and remove confirmation; and the
// frame of a dialog that holds a form (title, fields, Cancel and its button), with its sending.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField, type DialogProps } from '@mui/material';
import { checkTitle, TITLE_MAX } from '@portal/core';

/**
 * A form dialog's sending, for `FormDialog`: `send` runs once the form's own checks pass; `call` resolves to null once
 * done (the dialog closes) or the sentence to show, which goes to `failed` (shown in the dialog only, which stays
 * open; no notice repeats it behind).
 */
export function useFormDialog(onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const send = async (call: () => Promise<string | null>, failed: (message: string) => void) => {
    setBusy(true);
    try {
      const problem = await call();
      if (problem) failed(problem);
      else onClose();
    } finally {
      setBusy(false);
    }
  };
  return { busy, send, onClose };
}

interface FormDialogProps {
  open: boolean;
  /** The title's element id, which names the dialog. */
  titleId: string;
  title: string;
  submitLabel: string;
  /** Its sending (`useFormDialog`): the submit button is off while the form is sent. */
  form: ReturnType<typeof useFormDialog>;
  maxWidth?: DialogProps['maxWidth'];
  onSubmit(): void | Promise<void>;
  children: ReactNode;
}

/** A dialog holding a form: its title, its fields, Cancel, and the submit button (off while the form is sent). */
export function FormDialog({ open, titleId, title, submitLabel, form, maxWidth = 'xs', onSubmit, children }: FormDialogProps) {
  const { busy, onClose } = form;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit();
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth={maxWidth} aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

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
  const form = useFormDialog(onClose);
  useEffect(() => {
    if (open) {
      setValue(initial);
      setError(null);
    }
  }, [open, initial]);

  const submit = async () => {
    const err = checkTitle(value, mode);
    setError(err);
    if (!err) await form.send(() => onSubmit(value.trim()), setError);
  };

  return (
    <FormDialog
      open={open}
      titleId="name-dialog-title"
      title={title}
      submitLabel={submitLabel ?? (mode === 'rename' ? 'Rename' : 'Create')}
      form={form}
      onSubmit={submit}
    >
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
    </FormDialog>
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
