// The add-endpoint form: an https URL, the events picked from checkboxes, and a name; core's checks beside each field.
import { useEffect, useState } from 'react';
import { Checkbox, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel, TextField } from '@mui/material';
import {
  checkWebhookInput,
  TITLE_MAX,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookFormErrors,
  type WebhookInput,
} from '@portal/core';
import { FormDialog, useFormDialog } from '../Dialogs';

export function AddWebhookDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose(): void;
  /** Resolves to null once made (the dialog closes), else the server's sentence, shown in the dialog. */
  onSubmit(input: WebhookInput): Promise<string | null>;
}) {
  const [url, setUrl] = useState('https://');
  const [name, setName] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<WebhookFormErrors>({});
  const [failed, setFailed] = useState<string | null>(null);
  const form = useFormDialog(onClose);
  useEffect(() => {
    if (open) {
      setUrl('https://');
      setName('');
      setEvents([]);
      setErrors({});
      setFailed(null);
    }
  }, [open]);
  const toggle = (event: string, on: boolean) => setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)));
  const submit = async () => {
    const input = { url, events, name };
    const found = checkWebhookInput(input);
    setErrors(found);
    setFailed(null);
    if (Object.keys(found).length === 0) await form.send(() => onSubmit(input), setFailed);
  };
  return (
    <FormDialog
      open={open}
      titleId="add-webhook-title"
      title="Add endpoint"
      submitLabel="Add endpoint"
      form={form}
      maxWidth="sm"
      onSubmit={submit}
    >
      <TextField
        autoFocus
        margin="dense"
        label="Endpoint URL"
        name="url"
        type="url"
        fullWidth
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={!!(errors.url ?? failed)}
        helperText={errors.url ?? failed ?? 'Where the portal sends a POST for each event, signed.'}
      />
      <TextField
        margin="dense"
        label="Name (optional)"
        name="name"
        fullWidth
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={!!errors.name}
        helperText={errors.name ?? "What it is for; the URL's host when empty."}
        slotProps={{ htmlInput: { maxLength: TITLE_MAX } }}
      />
      <FormControl component="fieldset" error={!!errors.events} sx={{ mt: 2 }}>
        <FormLabel component="legend">Events to send</FormLabel>
        <FormGroup>
          {WEBHOOK_EVENTS.map((event) => (
            <FormControlLabel
              key={event}
              control={<Checkbox checked={events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} name={event} />}
              label={
                <span>
                  <code>{event}</code>: {WEBHOOK_EVENT_LABELS[event]}
                </span>
              }
              sx={{ alignItems: 'flex-start', '& .MuiCheckbox-root': { pt: 0.5 }, my: 0.25 }}
            />
          ))}
        </FormGroup>
        {errors.events && <FormHelperText>{errors.events}</FormHelperText>}
      </FormControl>
    </FormDialog>
  );
}
