// The add-endpoint form: an https URL, the events picked from checkboxes, and a name; core's checks beside each field.
import { Checkbox, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel } from '@mui/material';
import {
  checkWebhookInput,
  TITLE_MAX,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookFormErrors,
  type WebhookInput,
} from '@portal/core';
import { DialogField, FormDialog, useFormDialog } from '../Dialogs';

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
  const form = useFormDialog(open, onClose, {
    url: 'https://',
    name: '',
    events: [] as string[],
    errors: {} as WebhookFormErrors,
    failed: null as string | null,
  });
  const { url, name, events, errors, failed } = form.fields;
  const toggle = (event: string, on: boolean) => form.set({ events: on ? [...events, event] : events.filter((e) => e !== event) });
  const submit = async () => {
    const input = { url, events, name };
    const found = checkWebhookInput(input);
    form.set({ errors: found, failed: null });
    if (Object.keys(found).length === 0)
      await form.send(
        () => onSubmit(input),
        (m) => form.set({ failed: m }),
      );
  };
  return (
    <FormDialog titleId="add-webhook-title" title="Add endpoint" submitLabel="Add endpoint" form={form} maxWidth="sm" onSubmit={submit}>
      <DialogField
        form={form}
        name="url"
        label="Endpoint URL"
        type="url"
        problem={errors.url ?? failed}
        hint="Where the portal sends a POST for each event, signed."
        autoFocus
      />
      <DialogField
        form={form}
        name="name"
        label="Name (optional)"
        problem={errors.name}
        hint="What it is for; the URL's host when empty."
        maxLength={TITLE_MAX}
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
