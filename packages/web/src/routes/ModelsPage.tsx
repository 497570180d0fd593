// Models: the general models and the client's own (with rename and remove), and Create A New Model.
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button } from '@mui/material';
import { MESSAGES, screenPath, type Model, loadFailure } from '@portal/core';
import { Page, Section } from '../components/Page';
import { EntityTable, fromList, fromLoad, stampOf, useTablePaging } from '../components/EntityTable';
import { RunMessage } from '../components/RunMessage';
import { useListEditing } from '../components/useListEditing';
import { useModels } from '@portal/core/react';
import { useCrumbNames } from '../layout/ChromeContext';
import { notify } from '../lib/notify';
import { ProjectNotFound } from '../components/NotFound';
import { createdColumn } from '../components/table/columns';

export default function ModelsPage() {
  const { clientId = '', projectId = '' } = useParams();
  const navigate = useNavigate();
  const paging = useTablePaging();
  const models = useModels(clientId, projectId, paging);
  useCrumbNames({ client: models.data?.client.name, project: models.data?.project.name });
  const editing = useListEditing('model', models);
  // Models are the project's trained data transformations: a failed load says so (SPEC section 8).
  const failed = loadFailure(models.error, MESSAGES.loadTransformations);
  useEffect(() => {
    if (failed) notify(failed, 'error');
  }, [failed]);
  if (models.missing) return <ProjectNotFound clientId={clientId} />;
  return (
    <Page
      title="Models"
      actions={
        models.data && (
          <Button variant="contained" onClick={() => navigate(screenPath('createFitRun', { clientId, projectId }))}>
            Create A New Model
          </Button>
        )
      }
    >
      <Section title="General models">
        <EntityTable<Model>
          urlKey="general"
          label="General models"
          rows={models.data?.general}
          // Both tables show the one list read: one loading state, one failure and its retry; only the own models page.
          {...fromLoad(models, MESSAGES.loadTransformations)}
          rowKey={stampOf}
          idOf={stampOf}
          empty={MESSAGES.noModels}
          columns={[
            { id: 'name', label: 'Name', value: (m) => m.name },
            { id: 'desc', label: 'Description', value: (m) => m.desc, truncate: true },
            { id: 'message', minWidth: 200, label: 'Message', value: (m) => m.message },
            createdColumn(),
          ]}
        />
      </Section>
      <Section title="Your models">
        <EntityTable<Model>
          removeMany={editing.selection}
          label="Your models"
          rows={models.data?.own}
          {...fromList(models, paging, MESSAGES.loadTransformations)}
          empty={MESSAGES.noModels}
          emptyHint="Models you train from your uploads appear here, ready to transform new data."
          emptyAction={
            <Button variant="contained" onClick={() => navigate(screenPath('createFitRun', { clientId, projectId }))}>
              Train a model
            </Button>
          }
          initialSort={{ id: 'createdAt', dir: 'desc' }}
          columns={[
            { id: 'name', label: 'Name', value: (m) => m.name },
            { id: 'state', label: 'Status', value: (m) => m.state, status: true },
            { id: 'message', minWidth: 200, label: 'Message', value: (m) => m.message, render: (m) => <RunMessage message={m.message} /> },
            createdColumn(),
            { id: 'rend', label: 'Upload', value: (m) => m.rend?.name ?? '', truncate: true, priority: 'low' },
          ]}
          actions={(m) => editing.buttons({ id: m.stamp, name: m.name })}
        />
      </Section>
      {editing.dialogs}
    </Page>
  );
}
