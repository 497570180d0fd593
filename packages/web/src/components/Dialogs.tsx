// The dialogs every list shares: name (create and rename, with core's title rule) and remove confirmation; the frame
// every dialog is drawn in (title, content, buttons); and a dialog that holds a form, with its fields and its sending.
import { useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, type DialogProps } from '@mui/material';
import { checkTitle, TITLE_MAX } from '@portal/core';
import { BoundField, useFields } from './BoundField';

interface DialogFrameProps {
  open: boolean;
  onClose(): void;
  /** The title's element id, which names the dialog. */
  titleId: string;
  title: ReactNode;
  /** The element that describes the dialog to screen readers, if one does. */
  describedBy?: string;
  /** Given, the dialog takes the whole of this width; left out, it is as wide as its content. */
  maxWidth?: DialogProps['maxWidth'];
  /** Given, title, content and buttons are one form, sent by its submit button. */
  onSubmit?(e: FormEvent): void;
  /** The buttons at its foot. */
  actions?: ReactNode;
  children: ReactNode;
}

/** Every dialog's frame: its title (which names it), its content, and its buttons. */
export function DialogFrame({ open, onClose, titleId, title, describedBy, maxWidth, onSubmit, actions, children }: DialogFrameProps) {
  const inside = (
    <>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      {actions && <DialogActions>{actions}</DialogActions>}
    </>
  );
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth={!!maxWidth}
      maxWidth={maxWidth}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
    >
      {onSubmit ? (
        <form onSubmit={onSubmit} noValidate>
          {inside}
        </form>
      ) : (
        inside
      )}
    </Dialog>
  );
}

/**
 * A form dialog's state, for `FormDialog` and `DialogField`: its fields (and their messages), set back to `initial`
 * each time it opens; and its sending: `send` runs once the form's own checks pass; `call` resolves to null once done
 * (the dialog closes) or the sentence to show, which goes to `failed` (shown in the dialog only, which stays open; no
 * notice repeats it behind).
 */
export function useFormDialog<F extends object>(open: boolean, onClose: () => void, initial: F) {
  const { fields, set, reset } = useFields(initial);
  // Set back while rendering the opening, so it never shows what was typed the last time it was open.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) reset(initial);
  }
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
  return { open, fields, set, busy, send, onClose };
}

type FormState<F extends object> = ReturnType<typeof useFormDialog<F>>;

interface FormDialogProps<F extends object> extends Pick<DialogFrameProps, 'titleId' | 'title' | 'maxWidth' | 'children'> {
  submitLabel: string;
  /** Its state (`useFormDialog`): the submit button is off while the form is sent. */
  form: FormState<F>;
  onSubmit(): void | Promise<void>;
}

/** A dialog holding a form: its title, its fields, Cancel, and the submit button (off while the form is sent). */
export function FormDialog<F extends object>({ submitLabel, form, maxWidth = 'xs', onSubmit, ...frame }: FormDialogProps<F>) {
  const { open, busy, onClose } = form;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit();
  };
  const actions = (
    <>
      <Button onClick={onClose}>Cancel</Button>
      <Button type="submit" variant="contained" disabled={busy}>
        {submitLabel}
      </Button>
    </>
  );
  return <DialogFrame {...frame} open={open} onClose={onClose} maxWidth={maxWidth} onSubmit={submit} actions={actions} />;
}

/** A text field of a form dialog, bound to one of the form's fields, with its message (or hint) below it. */
export function DialogField<F extends object>(props: ComponentProps<typeof BoundField<F>>) {
  return <BoundField margin="dense" {...props} />;
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
  const form = useFormDialog(open, onClose, { name: initial, error: null as string | null });
  const { name, error } = form.fields;

  const submit = async () => {
    const err = checkTitle(name, mode);
    form.set({ error: err });
    if (!err)
      await form.send(
        () => onSubmit(name.trim()),
        (m) => form.set({ error: m }),
      );
  };

  return (
    <FormDialog
      titleId="name-dialog-title"
      title={title}
      submitLabel={submitLabel ?? (mode === 'rename' ? 'Rename' : 'Create')}
      form={form}
      onSubmit={submit}
    >
      <DialogField form={form} name="name" label={label} problem={error} hint=" " maxLength={TITLE_MAX} autoFocus />
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
    <DialogFrame
      open={open}
      onClose={onClose}
      titleId="confirm-dialog-title"
      title={title}
      describedBy="confirm-dialog-text"
      actions={
        <>
          <Button onClick={onClose} autoFocus>
            Cancel
          </Button>
          <Button onClick={confirm} color="error" variant="contained" disabled={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <DialogContentText id="confirm-dialog-text" sx={{ overflowWrap: 'anywhere' }}>
        {text}
      </DialogContentText>
    </DialogFrame>
  );
}
