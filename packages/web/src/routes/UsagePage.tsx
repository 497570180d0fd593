// An account's usage: requests, input parameters and spend per UTC day over 7, 30 or 90 days (all projects or one),
// the totals, the split by project, the quotes of the period with their state, amount and links, and CSV exports.
// Period and project are in the URL.
import { lazy, Suspense } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Alert, Box, Button, Stack, TextField, LinearProgress, Link, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import {
  csvFileName,
  formatCount,
  formatDollars,
  MESSAGES,
  screenPath,
  USAGE_PERIODS,
  usageDaysCsv,
  usageProjectsCsv,
  usageRequests,
} from '@portal/core';
import { type UsageProject, type UsageQuote } from '@portal/core/contract/table';
import { useUsage } from '@portal/core/react';
import { ClientNotFound } from '../components/NotFound';
import { Page } from '../components/Page';
import { Loading } from '../components/Loading';
import { useRouteClient, useCrumbNames } from '../layout/ChromeContext';
import { EntityTable } from '../components/EntityTable';
import { saveFile } from '../lib/saveFile';
import { useUrlParams } from '../lib/useUrlParams';
import { createdColumn } from '../components/table/columns';

// The chart library loads with the charts, not with the page (nor the login page).
const UsageCharts = lazy(() => import('../components/charts/UsageCharts'));

export default function UsagePage() {
  const { clientId = '' } = useParams();
  const client = useRouteClient(clientId);
  useCrumbNames({ client: client?.name });
  const { params, set } = useUrlParams();
  const period = Number(params.get('days'));
  const usage = useUsage(clientId, {
    days: (USAGE_PERIODS as readonly number[]).includes(period) ? period : undefined,
    project: params.get('project') ?? '',
  });
  const data = usage.data;
  const t = data?.usage.totals;
  const projects = data?.usage.projects ?? [];
  const remember = (k: string, v: string) => set({ [k]: v });
  const chosen = projects.find((p) => p.bucket === usage.project)?.name;
  if (usage.missing) return <ClientNotFound />;
  return (
    <Page
      title="Usage"
      actions={
        <ToggleButtonGroup
          exclusive
          size="small"
          value={usage.days}
          onChange={(_, v: number | null) => {
            if (!v) return;
            usage.setDays(v);
            remember('days', String(v));
          }}
          aria-label="Period"
        >
          {USAGE_PERIODS.map((d) => (
            <ToggleButton key={d} value={d}>
              {d} days
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      }
    >
      {!data ? (
        usage.loading ? (
          <Loading />
        ) : (
          <Alert severity="error" role="alert">
            {MESSAGES.loadUsage}
          </Alert>
        )
      ) : (
        <>
          <Stack direction="row" sx={{ gap: 1.5, flexWrap: 'wrap', alignItems: 'center', mb: 1.5 }}>
            <TextField
              select
              size="small"
              label="Project"
              value={usage.project}
              onChange={(e) => {
                usage.setProject(e.target.value);
                remember('project', e.target.value);
              }}
              sx={{ minWidth: 240, maxWidth: '100%' }}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              <option value="">All projects</option>
              {usage.project && !chosen && <option value={usage.project}>This project</option>}
              {projects.map((p) => (
                <option key={p.bucket} value={p.bucket}>
                  {p.name}
                </option>
              ))}
            </TextField>
            <Button
              variant="outlined"
              size="small"
              onClick={() => saveFile(csvFileName('usage_by_day'), usageDaysCsv(data.usage.days), 'text/csv')}
            >
              Export days (CSV)
            </Button>
            <Button
              variant="outlined"
              size="small"
              onClick={() => saveFile(csvFileName('usage_by_project'), usageProjectsCsv(projects), 'text/csv')}
            >
              Export projects (CSV)
            </Button>
          </Stack>
          <Typography aria-label="Totals" aria-live="polite">
            {chosen ? `${chosen}, last` : 'Last'} {usage.days} days (UTC): {formatCount(usageRequests(t!))} requests ({t!.fits} fit,{' '}
            {t!.generates} generate, {t!.shrinks} shrink) · {formatCount(t!.parameters)} input parameters · {formatDollars(t!.cents)} quoted
          </Typography>
          {usage.loading && <LinearProgress aria-label="Loading" sx={{ mt: 1 }} />}
          <Suspense fallback={<LinearProgress aria-label="Loading the charts" sx={{ mt: 2 }} />}>
            <UsageCharts days={data.usage.days} />
          </Suspense>
          <Box component="section" aria-label="By project" sx={{ mt: 3 }}>
            <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
              By project
            </Typography>
            <EntityTable<UsageProject>
              label="Usage by project"
              urlKey="projects"
              rows={projects}
              rowKey={(p) => p.bucket}
              empty="No requests in this period"
              filter={false}
              initialSort={{ id: 'cents', dir: 'desc' }}
              columns={[
                {
                  id: 'name',
                  label: 'Project',
                  value: (p) => p.name,
                  render: (p) => (
                    <Link component={RouterLink} to={screenPath('runs', { clientId, projectId: p.bucket })}>
                      {p.name}
                    </Link>
                  ),
                },
                {
                  id: 'requests',
                  label: 'Requests',
                  align: 'right',
                  value: (p) => usageRequests(p),
                  render: (p) => formatCount(usageRequests(p)),
                },
                {
                  id: 'parameters',
                  label: 'Input parameters',
                  align: 'right',
                  value: (p) => p.parameters,
                  render: (p) => formatCount(p.parameters),
                },
                { id: 'cents', label: 'Quoted', align: 'right', value: (p) => p.cents, render: (p) => formatDollars(p.cents) },
              ]}
            />
          </Box>
          <Box component="section" aria-label="Quotes" sx={{ mt: 3 }}>
            <Typography variant="h2" sx={{ fontSize: '1.1rem' }}>
              Quotes
            </Typography>
            <EntityTable<UsageQuote>
              label="Quotes"
              urlKey="quotes"
              rows={data.quote.list}
              rowKey={(q) => q.stamp}
              empty="No quotes in this period"
              filter={false}
              initialSort={{ id: 'createdAt', dir: 'desc' }}
              columns={[
                {
                  id: 'name',
                  label: 'Name',
                  value: (q) => q.name,
                  render: (q) => (
                    <Link component={RouterLink} to={screenPath('quoteDetails', { clientId, projectId: q.bucket, quoteId: q.stamp })}>
                      {q.name}
                    </Link>
                  ),
                },
                { id: 'state', label: 'Status', value: (q) => q.state },
                { id: 'cent', label: 'Amount', align: 'right', value: (q) => q.cent, render: (q) => formatDollars(q.cent) },
                { id: 'invoice', label: 'Invoice', value: (q) => q.invoiceNum },
                createdColumn(),
              ]}
            />
          </Box>
        </>
      )}
    </Page>
  );
}
