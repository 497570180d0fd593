// Create a shrink request in three sub-views: main (name, description, estimate - free credit = amount due, billing),
// pick an upload, upload a .py model; a question before the quote is created. A renderer of core's useShrinkRequest.
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Box, Button, DialogContentText, Stack, TextField, Typography } from '@mui/material';
import { DESCRIPTION_MAX, estimatePriceCents, formatDollars, MESSAGES, screenPath, type Upload, shrinkChoice } from '@portal/core';
import { useShrinkRequest, useUploads } from '@portal/core/react';
import { Page, Section } from '../components/Page';
import { ProjectNotFound } from '../components/NotFound';
import { TitleField } from '../components/TitleField';
import { EntityTable } from '../components/EntityTable';
import { BillingSummary } from '../components/BillingSummary';
import { FileDrop, UploadBatches } from '../components/FileDrop';
import { UploadFiles } from '../components/UploadFiles';
import { useLeaveWarning } from '../lib/useLeaveWarning';
import { useRouteClient, useCrumbNames } from '../layout/ChromeContext';
import { FormFailure } from '../components/FormFailure';
import { FormActions } from '../components/FormActions';
import { DialogFrame } from '../components/Dialogs';
import { createdColumn } from '../components/table/columns';

type View = 'main' | 'pick' | 'upload';
type Errors = { name?: string | null; desc?: string | null; upload?: string | null };

export default function CreateShrinkRunPage() {
  const { clientId = '', projectId = '' } = useParams();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const view = (['pick', 'upload'].includes(search.get('view') ?? '') ? search.get('view') : 'main') as View;
  const go = (v: View) => setSearch(v === 'main' ? {} : { view: v });
  const client = useRouteClient(clientId);
  const plan = client?.plan ?? 'Individual';
  const shrink = useShrinkRequest(clientId, projectId);
  useCrumbNames({ client: client?.name, project: shrink.project });
  const uploads = useUploads(clientId, projectId);
  useLeaveWarning(uploads.uploading);

  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = (stamp: string) => {
    shrink.choose(stamp);
    // A valid choice clears what was said about the upload, the form-level banner included.
    setErrors((e) => ({ ...e, upload: null }));
    setFailure(null);
  };
  const chosen = shrink.chosen;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const res = shrink.review({ name, desc });
    setErrors('error' in res ? res.fieldErrors : {});
  };
  const confirm = async () => {
    setBusy(true);
    const res = await shrink.confirm();
    setBusy(false);
    if ('quoteId' in res) return navigate(screenPath('quoteDetails', { clientId, projectId, quoteId: res.quoteId }));
    setFailure(res.error);
  };

  const reloadButton = (
    <Button variant="outlined" size="small" onClick={() => void shrink.reload()} disabled={shrink.reloading}>
      {shrink.reloading ? 'Reloading…' : 'Reload'}
    </Button>
  );

  if (shrink.missing) return <ProjectNotFound clientId={clientId} />;

  if (view === 'pick') {
    return (
      <Page
        title="Pick an upload"
        actions={
          <>
            {reloadButton}
            <Button onClick={() => go('main')}>Back</Button>
          </>
        }
      >
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          A shrink takes an upload that is Ready and holds one .py model and nothing else; the others say why they cannot be chosen. This
          list refreshes by itself; Reload checks at once.
        </Typography>
        <EntityTable<Upload>
          label="Uploads"
          rows={shrink.uploads}
          loading={shrink.loading}
          rowKey={(r) => r.stamp}
          empty={MESSAGES.noUploads}
          emptyHint="Upload a .py model file to shrink it."
          emptyAction={
            <Button variant="contained" onClick={() => go('upload')}>
              Upload a new model file
            </Button>
          }
          initialSort={{ id: 'usable', dir: 'asc' }}
          columns={[
            { id: 'name', label: 'Name', value: (r) => r.name },
            {
              id: 'usable',
              label: 'Can be used',
              value: (r) => {
                // Usable uploads sort first ('' before any reason).
                const c = shrinkChoice(r);
                return c.ok ? '' : c.reason;
              },
              render: (r) => {
                const c = shrinkChoice(r);
                return c.ok ? (
                  'Yes'
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    {c.reason}
                  </Typography>
                );
              },
            },
            {
              id: 'items',
              minWidth: 200,
              label: 'Files',
              value: (r) => r.upload.list.map((i) => i.name).join(' '),
              render: (r) => <UploadFiles upload={r} />,
            },
            {
              id: 'price',
              label: 'Estimate',
              value: (r) => estimatePriceCents(r.upload.list),
              render: (r) => formatDollars(estimatePriceCents(r.upload.list)),
            },
            createdColumn(),
          ]}
          actions={(r) => (
            <Button
              size="small"
              variant="contained"
              disabled={!shrinkChoice(r).ok}
              onClick={() => {
                choose(r.stamp);
                go('main');
              }}
              aria-label={`Select ${r.name}`}
            >
              Select
            </Button>
          )}
        />
      </Page>
    );
  }

  if (view === 'upload') {
    return (
      <Page title="Upload a model" actions={<Button onClick={() => go('main')}>Back</Button>}>
        <Typography sx={{ mb: 2 }}>A single .py file defining a model of at most 1 billion parameters.</Typography>
        <FileDrop
          context="shrink"
          plan={plan}
          disabled={uploads.uploading}
          onFiles={async (files) => {
            // The form follows the new upload itself (chosen at once; its status beside the choice).
            const { upload } = await uploads.upload(files, { follow: false });
            if (upload) {
              choose(upload);
              await shrink.reload();
              go('main');
            }
          }}
        />
        <UploadBatches batches={uploads.batches} />
      </Page>
    );
  }

  return (
    <Page title="Create Shrink Request" maxWidth={880}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={1}>
          <FormFailure message={failure} />
          <TitleField label="Request name" value={name} onChange={setName} error={errors.name} />
          <TextField
            label="Description"
            name="desc"
            value={desc}
            onChange={(e) => setDesc(e.target.value)}
            error={!!errors.desc}
            helperText={errors.desc ?? `${desc.length}/${DESCRIPTION_MAX}`}
            multiline
            minRows={3}
            fullWidth
            slotProps={{ htmlInput: { maxLength: DESCRIPTION_MAX } }}
          />
          <Section title="Model upload" actions={reloadButton}>
            <Typography sx={{ overflowWrap: 'anywhere' }} role="status">
              {chosen ? `${chosen.name} (${chosen.flight})` : 'No upload selected.'}
            </Typography>
            {errors.upload && (
              <Typography sx={{ color: 'error.main' }} role="alert">
                {errors.upload}
              </Typography>
            )}
            <Stack direction="row" sx={{ mt: 1, flexWrap: 'wrap', gap: 1 }}>
              <Button variant="outlined" onClick={() => go('pick')}>
                Pick an existing upload
              </Button>
              <Button variant="outlined" onClick={() => go('upload')}>
                Upload a new model file
              </Button>
            </Stack>
          </Section>
          <Section title="Price">
            <Typography data-testid="shrink-price">
              {shrink.priceText ?? `Estimated price: ${formatDollars(chosen ? estimatePriceCents(chosen.upload.list) : 0)}`}
            </Typography>
            <Box sx={{ mt: 1 }}>
              <BillingSummary billing={shrink.billing} />
            </Box>
          </Section>
          <FormActions label="Create Quote" busy={busy} onCancel={() => navigate(screenPath('runs', { clientId, projectId }))} />
        </Stack>
      </form>
      <DialogFrame
        open={shrink.question !== null}
        onClose={() => !busy && shrink.cancel()}
        titleId="shrink-confirm-title"
        title="Confirm the price"
        describedBy="shrink-confirm-text"
        actions={
          <>
            <Button onClick={shrink.cancel} disabled={busy} autoFocus>
              Back
            </Button>
            <Button onClick={() => void confirm()} variant="contained" disabled={busy}>
              Create Quote
            </Button>
          </>
        }
      >
        <DialogContentText id="shrink-confirm-text">{shrink.priceText}</DialogContentText>
        <DialogContentText sx={{ mt: 1 }}>{shrink.question}</DialogContentText>
      </DialogFrame>
    </Page>
  );
}
