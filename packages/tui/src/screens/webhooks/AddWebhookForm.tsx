// The add-endpoint form in the terminal: URL, an optional name, and a tick per event (core's checks under each).
import { useState } from 'react';
import { Box, Text } from 'ink';
import { checkWebhookInput, WEBHOOK_EVENTS, type WebhookInput } from '@portal/core';
import { Form } from '../../components/Form';
import { useHelp } from '../../ui/context';

type Values = Record<string, string | boolean>;

const inputOf = (v: Values): WebhookInput => ({
  url: String(v.url ?? ''),
  name: String(v.name ?? ''),
  events: WEBHOOK_EVENTS.filter((e) => v[e] === true),
});

export function AddWebhookForm({ onSubmit, onCancel }: { onSubmit(input: WebhookInput): Promise<string | null>; onCancel(): void }) {
  const [values, setValues] = useState<Values>({ url: 'https://', name: '' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useHelp('Tab/↑↓ fields · Space tick an event · Enter add · Esc back');
  const submit = async () => {
    const input = inputOf(values);
    const found = checkWebhookInput(input);
    // The events' message sits under the last event's tick.
    setErrors({ url: found.url, name: found.name, [WEBHOOK_EVENTS[WEBHOOK_EVENTS.length - 1]]: found.events });
    setMessage(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const failed = await onSubmit(input);
    setBusy(false);
    if (failed) setMessage(failed);
  };
  return (
    <Box flexDirection="column">
      <Text bold>Add endpoint</Text>
      <Form
        fields={[
          { key: 'url', label: 'URL' },
          { key: 'name', label: 'Name', optional: true, placeholder: "the URL's host" },
          ...WEBHOOK_EVENTS.map((e) => ({ key: e, label: e, kind: 'checkbox' as const })),
        ]}
        values={values}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: v }))}
        errors={errors}
        submitLabel="Add endpoint"
        onSubmit={() => void submit()}
        busy={busy}
        message={message ? { text: message, error: true } : null}
        links={[{ label: 'Cancel', action: onCancel }]}
      />
    </Box>
  );
}
