// Create an integration key: name, the one service (OpenAI), and its token (1-10,000 characters).
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, MenuItem, Stack } from '@mui/material';
import { checkIntegration, DEFAULT_INTEGRATION_SERVICE, INTEGRATION_SERVICES, INTEGRATION_TOKEN_MAX, screenPath } from '@portal/core';
import { Page } from '../components/Page';
import { TitleField } from '../components/TitleField';
import { BoundField, useFields } from '../components/BoundField';
import { useIntegrations } from '@portal/core/react';
import { useCrumbNames } from '../layout/ChromeContext';

export default function CreateIntegrationPage() {
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  const integrations = useIntegrations(clientId);
  useCrumbNames({ client: integrations.data?.client?.name });
  const form = useFields({ name: '', service: DEFAULT_INTEGRATION_SERVICE as (typeof INTEGRATION_SERVICES)[number], token: '' });
  const { name, service, token } = form.fields;
  const [errors, setErrors] = useState<{ name?: string; token?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = checkIntegration({ name, service, token });
    setErrors(errs);
    if (errs.name || errs.token) return;
    setBusy(true);
    const failed = await integrations.create({ name, service, token });
    setBusy(false);
    if (!failed) navigate(screenPath('integrations', { clientId }));
  };

  return (
    <Page title="Create Integration" maxWidth={640}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={1}>
          <TitleField label="Name" value={name} onChange={(v) => form.set({ name: v })} error={errors.name} />
          <BoundField form={form} name="service" label="Service" select hint=" ">
            {INTEGRATION_SERVICES.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </BoundField>
          <BoundField
            form={form}
            name="token"
            label="Token"
            type="password"
            autoComplete="off"
            problem={errors.token}
            hint={`The service's API token (up to ${INTEGRATION_TOKEN_MAX.toLocaleString('en-US')} characters). It is stored encrypted.`}
            maxLength={INTEGRATION_TOKEN_MAX}
            required
          />
          <Stack direction="row" spacing={1}>
            <Button type="submit" variant="contained" disabled={busy}>
              Create
            </Button>
            <Button onClick={() => navigate(screenPath('integrations', { clientId }))}>Cancel</Button>
          </Stack>
        </Stack>
      </form>
    </Page>
  );
}
