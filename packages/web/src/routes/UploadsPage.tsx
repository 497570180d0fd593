// The project's uploads: a drop zone with progress per file, and the list (flight, items, errors) with rename and remove.
import { useParams } from 'react-router-dom';
import { MESSAGES, type Upload } from '@portal/core';
import { useUploads } from '@portal/core/react';
import { Page, Section } from '../components/Page';
import { EntityTable, fromList, useTablePaging } from '../components/EntityTable';
import { FileDrop, UploadBatches } from '../components/FileDrop';
import { UploadFiles } from '../components/UploadFiles';
import { useListEditing } from '../components/useListEditing';
import { useLeaveWarning } from '../lib/useLeaveWarning';
import { useRouteClient, useCrumbNames } from '../layout/ChromeContext';
import { ProjectNotFound } from '../components/NotFound';
import { createdColumn } from '../components/table/columns';

export default function UploadsPage() {
  const { clientId = '', projectId = '' } = useParams();
  const client = useRouteClient(clientId);
  const paging = useTablePaging();
  const uploads = useUploads(clientId, projectId, paging);
  useLeaveWarning(uploads.uploading);
  useCrumbNames({ client: client?.name, project: uploads.data?.project?.name });
  const editing = useListEditing('upload', uploads);
  const plan = client?.plan ?? 'Individual';
  if (uploads.missing) return <ProjectNotFound clientId={clientId} />;
  return (
    <Page title="Uploads">
      <FileDrop
        context="uploads"
        plan={plan}
        // Success, failure and cancel are notified by core's hook.
        onFiles={(files) => void uploads.upload(files)}
      />
      <UploadBatches batches={uploads.batches} />
      <Section title="Your uploads">
        <EntityTable<Upload>
          removeMany={editing.selection}
          label="Uploads"
          rows={uploads.data?.uploads}
          {...fromList(uploads, paging, MESSAGES.fetchUploads)}
          empty={MESSAGES.noUploads}
          emptyHint="Uploads hold the files your requests read: .json data to train on, a .py model to shrink. Drop files in the box above to start."
          initialSort={{ id: 'createdAt', dir: 'desc' }}
          columns={[
            { id: 'name', label: 'Name', value: (r) => r.name },
            { id: 'flight', label: 'Status', value: (r) => r.flight, status: true },
            {
              id: 'items',
              minWidth: 200,
              priority: 'low',
              label: 'Files',
              value: (r) => r.upload.list.map((i) => i.name).join(' '),
              render: (r) => <UploadFiles upload={r} />,
            },
            { id: 'runs', label: 'Requests', value: (r) => r.runs, align: 'right' },
            createdColumn(),
          ]}
          actions={(r) => editing.buttons({ id: r.stamp, name: r.name })}
        />
      </Section>
      {editing.dialogs}
    </Page>
  );
}
