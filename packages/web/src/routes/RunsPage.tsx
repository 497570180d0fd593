// The project's requests: function, status, message (red, with Contact Support), created, upload; open, rename, remove.
import { useNavigate, useParams } from 'react-router-dom';
import { Button, MenuItem, Stack, TextField } from '@mui/material';
import { MESSAGES, requestFunctionLabel, RUN_FUNCTIONS, RUN_STATES, screenPath, type Run } from '@portal/core';
import { Page } from '../components/Page';
import { EntityTable, fromList, useTablePaging } from '../components/EntityTable';
import { RunMessage } from '../components/RunMessage';
import { useListEditing } from '../components/useListEditing';
import { useRuns } from '@portal/core/react';
import { useCrumbNames } from '../layout/ChromeContext';
import { ProjectNotFound } from '../components/NotFound';
import { createdColumn } from '../components/table/columns';

/** One filter of the list: All, or one of its values. */
function FilterSelect(props: { label: string; value: string; options: readonly string[]; onChange(value: string): void }) {
  return (
    <TextField
      select
      size="small"
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      sx={{ minWidth: 160 }}
    >
      <MenuItem value="">All</MenuItem>
      {props.options.map((v) => (
        <MenuItem key={v} value={v}>
          {v}
        </MenuItem>
      ))}
    </TextField>
  );
}

export default function RunsPage() {
  const { clientId = '', projectId = '' } = useParams();
  const navigate = useNavigate();
  const paging = useTablePaging();
  const runs = useRuns(clientId, projectId, paging);
  // Requests in progress change state on the server: the list refreshes until all are final.
  useCrumbNames({ client: runs.data?.client.name, project: runs.data?.project.name });
  const editing = useListEditing('request', runs);
  const open = (r: Run) =>
    navigate(
      r.function === 'shrink' && r.quote
        ? screenPath('quoteDetails', { clientId, projectId, quoteId: r.quote })
        : screenPath('runDetails', { clientId, projectId, runId: r.stamp }),
    );
  if (runs.missing) return <ProjectNotFound clientId={clientId} />;
  return (
    <Page
      title="Requests"
      actions={
        runs.data && (
          <>
            <Button variant="contained" onClick={() => navigate(screenPath('createFitRun', { clientId, projectId }))}>
              Create Request
            </Button>
            <Button variant="outlined" onClick={() => navigate(screenPath('createShrinkRun', { clientId, projectId }))}>
              Create Shrink Request
            </Button>
          </>
        )
      }
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }} aria-label="Request filters">
        <FilterSelect
          label="Status"
          value={runs.filters.state ?? ''}
          options={RUN_STATES}
          onChange={(state) => runs.setFilters({ ...runs.filters, state })}
        />
        <FilterSelect
          label="Function"
          value={runs.filters.function ?? ''}
          options={RUN_FUNCTIONS}
          onChange={(fn) => runs.setFilters({ ...runs.filters, function: fn as Run['function'] | '' })}
        />
      </Stack>
      <EntityTable<Run>
        removeMany={editing.selection}
        label="Requests"
        rows={runs.data?.runs}
        {...fromList(runs, paging, MESSAGES.loadRequests)}
        empty={MESSAGES.noRequests}
        emptyHint="Requests train a model from an upload and apply it, or shrink a model for a quote. Each needs an upload that is Ready."
        emptyAction={
          <>
            <Button variant="contained" onClick={() => navigate(screenPath('createFitRun', { clientId, projectId }))}>
              Train a model
            </Button>
            <Button variant="outlined" onClick={() => navigate(screenPath('uploads', { clientId, projectId }))}>
              Upload data
            </Button>
          </>
        }
        initialSort={{ id: 'createdAt', dir: 'desc' }}
        columns={[
          { id: 'name', label: 'Name', value: (r) => r.name },
          { id: 'function', label: 'Function', value: (r) => requestFunctionLabel(r.function) },
          { id: 'state', label: 'Status', value: (r) => r.state, status: true },
          { id: 'message', minWidth: 200, label: 'Message', value: (r) => r.message, render: (r) => <RunMessage message={r.message} /> },
          createdColumn(),
          { id: 'rend', label: 'Upload', value: (r) => r.rend?.name ?? '', truncate: true, priority: 'low' },
        ]}
        actions={(r) => (
          <>
            <Button size="small" variant="contained" onClick={() => open(r)} aria-label={`Open ${r.name}`}>
              Open
            </Button>
            {editing.buttons({ id: r.stamp, name: r.name })}
          </>
        )}
      />
      {editing.dialogs}
    </Page>
  );
}
