// The project's requests: function, status, message (red, with Contact Support), created, upload; open, rename, remove.
import { useNavigate, useParams } from 'react-router-dom';
import { Button } from '@mui/material';
import { formatTime, isFinalState, MESSAGES, screenPath, type Run } from '@portal/core';
import { Page } from '../components/Page';
import { DataTable } from '../components/DataTable';
import { RunMessage } from '../components/RunMessage';
import { useListEditing } from '../components/useListEditing';
import { api } from '../lib/api';
import { useLoad } from '../lib/useLoad';
import { useCrumbNames } from '../layout/ChromeContext';

export default function RunsPage() {
  const { clientId = '', bucketId = '' } = useParams();
  const navigate = useNavigate();
  // Requests in progress change state on the server: the list refreshes until all are final.
  const runs = useLoad((signal) => api.calls.runList({ active: 1, bucket: bucketId }, { signal }), [bucketId], {
    failure: MESSAGES.loadRequests,
    pollMs: 5000,
    until: (r) => r.run.list.every((x) => isFinalState(x.state) || (x.function === 'shrink' && !!x.quote)),
  });
  useCrumbNames({ client: runs.data?.client.name, project: runs.data?.bucket.name });
  const editing = useListEditing({
    noun: 'request',
    rename: (id, name) => api.calls.runRename({ run: id, name }),
    remove: (id) => api.calls.runRemove({ run: id, active: 0 }),
    renameFailure: MESSAGES.renameRun,
    removeFailure: MESSAGES.removeRun,
    after: runs.reload,
  });
  const open = (r: Run) =>
    navigate(
      r.function === 'shrink' && r.quote
        ? screenPath('quoteDetails', { clientId, bucketId, quoteId: r.quote })
        : screenPath('runDetails', { clientId, bucketId, runId: r.stamp }),
    );
  return (
    <Page
      title="Requests"
      actions={
        <>
          <Button variant="contained" onClick={() => navigate(screenPath('createFitRun', { clientId, bucketId }))}>
            Create Request
          </Button>
          <Button variant="outlined" onClick={() => navigate(screenPath('createShrinkRun', { clientId, bucketId }))}>
            Create Shrink Request
          </Button>
        </>
      }
    >
      <DataTable<Run>
        label="Requests"
        rows={runs.data?.run.list}
        loading={runs.loading}
        rowKey={(r) => r.stamp}
        empty={MESSAGES.noRequests}
        initialSort={{ id: 'createdAt', dir: 'desc' }}
        columns={[
          { id: 'name', label: 'Name', value: (r) => r.name },
          { id: 'function', label: 'Function', value: (r) => r.function },
          { id: 'state', label: 'Status', value: (r) => r.state },
          { id: 'message', label: 'Message', value: (r) => r.message, render: (r) => <RunMessage message={r.message} /> },
          { id: 'createdAt', label: 'Created', value: (r) => r.createdAt, render: (r) => formatTime(r.createdAt) },
          { id: 'rend', label: 'Upload', value: (r) => r.rend?.name ?? '' },
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
