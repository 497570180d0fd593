// The client's projects: name, counts of transformations (requests) and uploads; create, rename, remove, Open.
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button } from '@mui/material';
import { MESSAGES, projectOpenTarget, screenPath, type Project } from '@portal/core';
import { ClientNotFound } from '../components/NotFound';
import { Page } from '../components/Page';
import { EntityTable, fromList, useTablePaging } from '../components/EntityTable';
import { NameDialog } from '../components/Dialogs';
import { useListEditing } from '../components/useListEditing';
import { useProjects } from '@portal/core/react';
import { useCrumbNames } from '../layout/ChromeContext';
import { createdColumn } from '../components/table/columns';

export default function ProjectsPage() {
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const paging = useTablePaging({ searched: true });
  const projects = useProjects(clientId, paging);
  useCrumbNames({ client: projects.data?.client?.name });
  const editing = useListEditing('project', projects);
  // A new project has nothing in it yet: it opens on its uploads, the first step (SPEC's Open rule would show the
  // shrink form's billing, which means nothing before there is data).
  const { created } = projects;
  useEffect(() => {
    if (created) navigate(screenPath('uploads', { clientId, projectId: created }));
  }, [created, clientId, navigate]);
  if (projects.missing) return <ClientNotFound />;
  return (
    <Page
      title="Projects"
      actions={
        // Only once the client is known to be the user's: a foreign or unknown client shows its failure, no live action.
        projects.data && (
          <Button variant="contained" onClick={() => setCreating(true)}>
            Create Project
          </Button>
        )
      }
    >
      <EntityTable<Project>
        removeMany={editing.selection}
        label="Projects"
        rows={projects.data?.projects}
        {...fromList(projects, paging)}
        empty={MESSAGES.noProjects}
        emptyHint="A project holds the data you upload, the models trained from it and the requests that use them."
        emptyAction={
          <Button variant="contained" onClick={() => setCreating(true)}>
            Create your first project
          </Button>
        }
        initialSort={{ id: 'createdAt', dir: 'desc' }}
        columns={[
          { id: 'name', label: 'Name', value: (b) => b.name },
          { id: 'runs', label: 'Transformations', value: (b) => b.runs, align: 'right' },
          { id: 'rends', label: 'Uploads', value: (b) => b.rends, align: 'right' },
          createdColumn(),
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
      <NameDialog
        open={creating}
        mode="create"
        title="Create Project"
        onClose={() => setCreating(false)}
        onSubmit={(name) => projects.create(name, { inline: true })}
      />
    </Page>
  );
}
