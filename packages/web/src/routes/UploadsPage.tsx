// The project's uploads: a drop zone with progress per file, and the list (flight, items, errors) with rename and remove.
import { useParams } from 'react-router-dom';
import { formatTime, MESSAGES, type Rend } from '@portal/core';
import { Page, Section } from '../components/Page';
import { DataTable } from '../components/DataTable';
import { FileDrop, UploadBars } from '../components/FileDrop';
import { RendItems } from '../components/RendItems';
import { useListEditing } from '../components/useListEditing';
import { useUploader } from '../components/useUploader';
import { api } from '../lib/api';
import { useLoad } from '../lib/useLoad';
import { useClient, useCrumbNames } from '../layout/ChromeContext';

const settled = (r: Rend) => r.flight === 'Ready' || r.flight === 'Failed';

export default function UploadsPage() {
  const { clientId = '', bucketId = '' } = useParams();
  const client = useClient(clientId);
  const uploads = useLoad((signal) => api.calls.rendList({ active: 1, bucket: bucketId }, { signal }), [bucketId], {
    failure: MESSAGES.fetchUploads,
    pollMs: 3000,
    until: (r) => r.rend.list.every(settled),
  });
  useCrumbNames({ client: client?.name ?? uploads.data?.client?.name, project: uploads.data?.bucket?.name });
  const uploader = useUploader(bucketId);
  const editing = useListEditing({
    noun: 'upload',
    rename: (id, name) => api.calls.rendRename({ rend: id, name }),
    remove: (id) => api.calls.rendRemove({ rend: id, active: 0 }),
    renameFailure: MESSAGES.renameUpload,
    removeFailure: MESSAGES.removeUpload,
    after: uploads.reload,
  });
  const plan = client?.plan ?? uploads.data?.client?.plan ?? 'Individual';
  return (
    <Page title="Uploads">
      <FileDrop
        context="uploads"
        plan={plan}
        disabled={uploader.busy}
        onFiles={async (files) => {
          const rend = await uploader.upload(files);
          if (rend) await uploads.reload();
        }}
      />
      <UploadBars progress={uploader.progress} />
      <Section title="Your uploads">
        <DataTable<Rend>
          label="Uploads"
          rows={uploads.data?.rend.list}
          loading={uploads.loading}
          rowKey={(r) => r.stamp}
          empty={MESSAGES.noUploads}
          initialSort={{ id: 'createdAt', dir: 'desc' }}
          columns={[
            { id: 'name', label: 'Name', value: (r) => r.name },
            { id: 'flight', label: 'Flight', value: (r) => r.flight },
            { id: 'items', label: 'Files', value: (r) => r.upload.list.map((i) => i.name).join(' '), render: (r) => <RendItems rend={r} /> },
            { id: 'runs', label: 'Requests', value: (r) => r.runs, align: 'right' },
            { id: 'createdAt', label: 'Created', value: (r) => r.createdAt, render: (r) => formatTime(r.createdAt) },
          ]}
          actions={(r) => editing.buttons({ id: r.stamp, name: r.name })}
        />
      </Section>
      {editing.dialogs}
    </Page>
  );
}
