// A request's details, live until it is final, with Download Results saved as ensemble_result_{date}_{time}.json,
// its state timeline, progress, loss chart (a fit's), event log, duration and Run again.
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Link,
  Stack,
  Step,
  StepLabel,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { formatDuration, isFinalState, isMissing, MESSAGES, runScoreText, screenPath } from '@portal/core';
import { notify } from '../lib/notify';
import { saveFile } from '../lib/saveFile';
import { useRelatedRuns, useRunDetails } from '@portal/core/react';
import { Page, Section } from '../components/Page';
import { Loading } from '../components/Loading';
import { RunMessage } from '../components/RunMessage';
import { useRouteClient, useCrumbNames } from '../layout/ChromeContext';
import { DetailField } from '../components/DetailField';
import { Time } from '../components/Time';
import { HeadRow } from '../components/Cells';
import { NotFound } from '../components/NotFound';

// The chart library loads with the chart, not with the page (nor the login page).
const LossChart = lazy(() => import('../components/charts/LossChart'));
// The map's code loads only on a page that shows a map.
const EmbeddingMap = lazy(() => import('../components/charts/EmbeddingMap'));

export default function RunDetailsPage() {
  const navigate = useNavigate();
  const { clientId = '', projectId = '', runId = '' } = useParams();
  const client = useRouteClient(clientId);
  const status = useRunDetails(clientId, projectId, runId);
  const run = status.data?.run.record;
  const related = useRelatedRuns(projectId, run);
  useCrumbNames({ client: client?.name ?? status.data?.client?.name, project: status.data?.bucket?.name, run: run?.name });
  const [downloading, setDownloading] = useState(false);

  if (!run) {
    if (status.loading) return <Loading />;
    // An unknown or removed request is 'Request not found'; any other failure is SPEC's load message.
    if (isMissing(status.error))
      return (
        <NotFound
          title={MESSAGES.requestNotFound}
          crumb={{ run: MESSAGES.requestNotFound }}
          back={{ label: 'Back to requests', to: screenPath('runs', { clientId, projectId }) }}
        />
      );
    return (
      <Page title="Request Details">
        <Alert severity="error" role="alert">
          {MESSAGES.loadRun}
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
      saveFile(fileName, text);
    } catch {
      // Already notified by the hook.
    } finally {
      setDownloading(false);
    }
  };
  const final = isFinalState(run.state);
  const rerun = async () => {
    const again = await status.rerun();
    if (!again) return;
    notify(MESSAGES.rerunStarted, 'success');
    navigate(screenPath('runDetails', { clientId, projectId, runId: again }));
  };
  const { progress, loss, timeline, events } = status;
  const score = runScoreText(run);
  return (
    <Page
      title={run.name}
      actions={
        <>
          <Button variant="contained" onClick={download} disabled={!url || downloading}>
            Download Results
          </Button>
          {status.canRerun && (
            <Button variant="outlined" onClick={() => void rerun()} disabled={status.rerunning}>
              Run again
            </Button>
          )}
        </>
      }
    >
      {timeline.length > 0 && (
        <Stepper activeStep={timeline.length} alternativeLabel aria-label="State timeline" sx={{ mb: 2 }}>
          {timeline.map((t, i) => (
            <Step key={i} completed>
              <StepLabel
                error={t.state === 'Failed'}
                optional={
                  <Typography variant="caption">
                    <Time at={t.at} />
                  </Typography>
                }
              >
                {t.state}
              </StepLabel>
            </Step>
          ))}
        </Stepper>
      )}
      {progress && run.state !== 'Failed' && (
        <Box sx={{ mb: 2 }}>
          <LinearProgress
            variant={progress.fraction === null ? 'indeterminate' : 'determinate'}
            value={Math.round((progress.fraction ?? 0) * 100)}
            aria-label="Progress"
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {progress.label}
            {progress.fraction !== null ? ` · ${Math.round(progress.fraction * 100)}%` : ''}
          </Typography>
        </Box>
      )}
      <Stack>
        <DetailField label="Status">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status" aria-label="Request state">
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
        {score && (
          <DetailField label="How good">
            <Typography component="span" aria-label="Held-out score" sx={{ fontWeight: run.metrics ? 600 : undefined }}>
              {score}
            </Typography>
          </DetailField>
        )}
        {run.note && (
          <DetailField label="Note">
            <Alert severity="warning" variant="outlined" sx={{ py: 0 }}>
              {run.note}
            </Alert>
          </DetailField>
        )}
        <DetailField label="Created">
          <Time at={run.createdAt} />
        </DetailField>
        <DetailField label="Started">
          <Time at={run.startedAt} />
        </DetailField>
        <DetailField label="Finished">
          <Time at={run.finishedAt} />
        </DetailField>
        <DetailField label="Duration">{formatDuration(status.duration)}</DetailField>
        <DetailField label="Upload">
          {run.rend?.name ?? (
            <Box component="span" sx={{ color: 'error.main' }}>
              {MESSAGES.uploadDataNotFound}
            </Box>
          )}
        </DetailField>
        {run.function === 'fit' && related.generates[0] && (
          <DetailField label="Embeddings">
            <Link component={RouterLink} to={screenPath('runDetails', { clientId, projectId, runId: related.generates[0].stamp })}>
              {related.generates[0].name}
            </Link>{' '}
            <Typography component="span" variant="body2" color="text.secondary">
              {related.generates[0].state}: the rows transformed by this model, to download
            </Typography>
          </DetailField>
        )}
        {run.function === 'generate' && (
          <DetailField label="Model">
            {related.source ? (
              <Link component={RouterLink} to={screenPath('runDetails', { clientId, projectId, runId: related.source.stamp })}>
                {related.source.name} (the fit that trained it)
              </Link>
            ) : (
              <Link component={RouterLink} to={screenPath('models', { clientId, projectId })}>
                {run.model?.startsWith('general-') ? 'A general model' : 'A model of this project'}
              </Link>
            )}
          </DetailField>
        )}
        {run.desc && <DetailField label="Description">{run.desc}</DetailField>}
      </Stack>
      {run.function === 'fit' && (
        <Section title="Requests using this model">
          {related.generates.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No generate request uses this model yet.
            </Typography>
          ) : (
            <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2.5 }}>
              {related.generates.map((g) => (
                <li key={g.stamp}>
                  <Link component={RouterLink} to={screenPath('runDetails', { clientId, projectId, runId: g.stamp })}>
                    {g.name}
                  </Link>{' '}
                  <Typography component="span" variant="body2" color="text.secondary">
                    {g.state} · <Time at={g.createdAt} />
                  </Typography>
                </li>
              ))}
            </Stack>
          )}
        </Section>
      )}
      {!url && final && run.state === 'Finished' && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          This request has no result file.
        </Typography>
      )}
      {loss.length > 0 && (
        <Box component="section" aria-label="Loss chart" sx={{ mt: 3 }}>
          <Typography variant="h2" sx={{ fontSize: '1.1rem' }}>
            {run.function === 'generate' ? 'Loss per epoch of its model’s training' : 'Loss per epoch'}
          </Typography>
          <Suspense fallback={<LinearProgress aria-label="Loading the chart" />}>
            <LossChart points={loss} />
          </Suspense>
        </Box>
      )}
      {run.function === 'generate' && run.state === 'Finished' && (
        <Box component="section" aria-label="Embedding map" sx={{ mt: 3 }}>
          <Typography variant="h2" sx={{ fontSize: '1.1rem' }}>
            Embedding map
          </Typography>
          <Suspense fallback={<LinearProgress aria-label="Loading the map" />}>
            <EmbeddingMap runId={run.stamp} />
          </Suspense>
        </Box>
      )}
      <Box component="section" aria-label="Event log" sx={{ mt: 3 }}>
        <Typography variant="h2" sx={{ fontSize: '1.1rem' }}>
          Events
        </Typography>
        {events.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {MESSAGES.noEvents}
          </Typography>
        ) : (
          <Box sx={{ maxHeight: 320, overflow: 'auto' }} tabIndex={0} role="region" aria-label="Event log">
            <Table size="small" stickyHeader>
              <HeadRow cells={['Time', 'Kind', 'Message']} />
              <TableBody>
                {[...events].reverse().map((e) => (
                  <TableRow key={e.seq}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <Time at={e.at} />
                    </TableCell>
                    <TableCell>{e.kind}</TableCell>
                    <TableCell sx={{ color: e.message.startsWith('Failed') ? 'error.main' : undefined }}>{e.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </Box>
    </Page>
  );
}
