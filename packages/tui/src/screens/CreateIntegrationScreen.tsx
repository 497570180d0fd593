// Create an integration key: name, the one service, and its token.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { DEFAULT_INTEGRATION_SERVICE, INTEGRATION_SERVICES, INTEGRATION_TOKEN_MAX, checkIntegration, screenPath } from '@portal/core';
import { useIntegrations } from '@portal/core/react';
import { Form } from '../components/Form';
import { useLabel, useNav } from '../ui/context';

export default function CreateIntegrationScreen() {
  const nav = useNav();
  const clientId = nav.params.clientId!;
  const integrations = useIntegrations(clientId);
  useLabel(clientId, integrations.data?.client?.name);
  const [values, setValues] = useState({ name: '', service: DEFAULT_INTEGRATION_SERVICE as string, token: '' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const fieldErrors = checkIntegration(values);
    setErrors(fieldErrors);
    if (fieldErrors.name || fieldErrors.token) return;
    setBusy(true);
    const failed = await integrations.create(values);
    setBusy(false);
    if (!failed) nav.go(screenPath('integrations', { clientId }));
  };
  return (
    <Box flexDirection="column">
      <Text bold>Create Integration</Text>
      <Form
        fields={[
          { key: 'name', label: 'Name' },
          { key: 'service', label: 'Service', kind: 'select', items: INTEGRATION_SERVICES.map((s) => ({ label: s, value: s })) },
          { key: 'token', label: 'Token', kind: 'password' },
        ]}
        values={values}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: String(v) }))}
        errors={errors}
        submitLabel="Create"
        onSubmit={() => void submit()}
        busy={busy}
        links={[{ label: 'Cancel', action: () => nav.go(screenPath('integrations', { clientId })) }]}
      >
        <Text dimColor>
          The service's API token (up to {INTEGRATION_TOKEN_MAX.toLocaleString('en-US')} characters). It is stored encrypted.
        </Text>
      </Form>
    </Box>
  );
}
