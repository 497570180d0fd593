// The client's projects: name, counts of transformations (requests) and uploads; create, rename, remove, Open.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button } from '@mui/material';
import { formatTime, MESSAGES, projectOpenTarget, type Bucket, loadFailure } from '@portal/core';
import { Page } from '../components/Page';
import { DataTable } from '../components/DataTable';
import { NameDialog } from '../components/Dialogs';
import { useListEditing } from '../components/useListEditing';
import { useProjects } from '@portal/core/react';
import { useCrumbNames } from '../layout/ChromeContext';

export default function ProjectsPage() {
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const projects = useProjects(clientId);
  useCrumbNames({ client: projects.data?.client?.name });
  const editing = useListEditing('project', projects);
  return (
    <Page
      title="Projects"
      actions={
        <Button variant="contained" onClick={() => setCreating(true)}>
          Create Project
        </Button>
      }
    >
      <DataTable<Bucket>
        label="Projects"
        rows={projects.data?.projects}
        loading={projects.loading}
        error={loadFailure(projects.error)}
        onRetry={() => void projects.reload()}
        rowKey={(b) => b.stamp}
        idOf={(b) => b.stamp}
        empty={MESSAGES.noProjects}
        initialSort={{ id: 'createdAt', dir: 'desc' }}
        columns={[
          { id: 'name', label: 'Name', value: (b) => b.name },
          { id: 'runs', label: 'Transformations', value: (b) => b.runs, align: 'right' },
          { id: 'rends', label: 'Uploads', value: (b) => b.rends, align: 'right' },
          { id: 'createdAt', label: 'Created', nowrap: true, value: (b) => b.createdAt, render: (b) => formatTime(b.createdAt) },
        ]}
        actions={(b) => (
          <>
            <Button size="small" variant="contained" onClick={() => navigate(projectOpenTarget(clientId, b))} aria-label={`Open ${b.name}`}>
              Open
            </Button>
            {editing.buttons({ id: b.stamp, name: b.name })}
          </>
        )}
      />
      {editing.dialogs}
      <NameDialog open={creating} mode="create" title="Create Project" onClose={() => setCreating(false)} onSubmit={projects.create} />
    </Page>
  );
}
