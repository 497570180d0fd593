// A request's details, live until it is final, with Download Results saved as ensemble_result_{date}_{time}.json.
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import { formatTime, isFinalState, MESSAGES } from '@portal/core';
import { useRunDetails } from '@portal/core/react';
import { Page } from '../components/Page';
import { Loading } from '../components/Loading';
import { RunMessage } from '../components/RunMessage';
import { useClient, useCrumbNames } from '../layout/ChromeContext';
import { DetailField } from '../components/DetailField';

export function saveText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function RunDetailsPage() {
  const { clientId = '', bucketId = '', runId = '' } = useParams();
  const client = useClient(clientId);
  const status = useRunDetails(clientId, bucketId, runId);
  const run = status.data?.run.record;
  useCrumbNames({ client: client?.name ?? status.data?.client?.name, project: status.data?.bucket?.name, run: run?.name });
  const [downloading, setDownloading] = useState(false);

  if (!run) {
    if (status.loading) return <Loading />;
    // An unknown or removed request is 'Request not found'; any other failure is SPEC's load message.
    const missing = !status.error || status.error.status === 404 || status.error.status === 403;
    return (
      <Page title="Request Details">
        <Alert severity={missing ? 'info' : 'error'} role="alert">
          {missing ? MESSAGES.requestNotFound : MESSAGES.loadRun}
        </Alert>
      </Page>
    );
  }
  const url = status.data?.run.url;
  const download = async () => {
    if (!url) return;
    setDownloading(true);
    try {
      const { fileName, text } = await status.download();
      saveText(fileName, text);
    } catch {
      // Already notified by the hook.
    } finally {
      setDownloading(false);
    }
  };
  const final = isFinalState(run.state);
  return (
    <Page
      title={run.name}
      actions={
        <Button variant="contained" onClick={download} disabled={!url || downloading}>
          Download Results
        </Button>
      }
    >
      <Stack>
        <DetailField label="Status">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} aria-live="polite">
            <Chip
              size="small"
              label={run.state}
              color={run.state === 'Finished' ? 'success' : run.state === 'Failed' ? 'error' : 'default'}
            />
            {!final && (
              <Typography variant="body2" color="text.secondary">
                Updating live…
              </Typography>
            )}
          </Stack>
        </DetailField>
        {run.message && (
          <DetailField label="Message">
            <RunMessage message={run.message} />
          </DetailField>
        )}
        <DetailField label="Function">{run.function}</DetailField>
        <DetailField label="Created">{formatTime(run.createdAt)}</DetailField>
        <DetailField label="Upload">
          {run.rend?.name ?? (
            <Box component="span" sx={{ color: 'error.main' }}>
              {MESSAGES.rendNotFound}
            </Box>
          )}
        </DetailField>
        {run.desc && <DetailField label="Description">{run.desc}</DetailField>}
      </Stack>
      {!url && final && run.state === 'Finished' && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          This request has no result file.
        </Typography>
      )}
    </Page>
  );
}
