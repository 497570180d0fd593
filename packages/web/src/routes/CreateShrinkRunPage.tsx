// Create a shrink request in three sub-views: main (name, description, price, billing), pick an upload, upload a .py model.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import {
  changeDetector, checkDescription, checkTitle, createShrinkRequest, DESCRIPTION_MAX, estimatePriceCents, formatDollars,
  formatTime, isApiError, MESSAGES, ReloadPoller, screenPath, TITLE_MAX, type Billing, type Rend,
} from '@portal/core';
import { Page, Section } from '../components/Page';
import { DataTable } from '../components/DataTable';
import { BillingSummary } from '../components/BillingSummary';
import { FileDrop, UploadBars } from '../components/FileDrop';
import { RendItems } from '../components/RendItems';
import { useUploader } from '../components/useUploader';
import { api } from '../lib/api';
import { notify } from '../lib/notify';
import { useClient, useCrumbNames } from '../layout/ChromeContext';
import { useRefreshWhile } from '../lib/useRefreshWhile';
import { FormFailure } from '../components/FormFailure';
import { FormActions } from '../components/FormActions';

type View = 'main' | 'pick' | 'upload';

/** Uploads and billing, polled with core's reload poller (20 s, growing while unchanged) and reloaded on demand. */
function useShrinkData(clientId: string, bucketId: string) {
  const [rends, setRends] = useState<Rend[] | undefined>(undefined);
  const [billing, setBilling] = useState<Billing | undefined>(undefined);
  const [project, setProject] = useState<string | undefined>(undefined);
  const [reloading, setReloading] = useState(false);
  const poller = useRef<ReloadPoller | null>(null);
  useEffect(() => {
    const changed = changeDetector<unknown>();
    let failedOnce = false;
    const p = new ReloadPoller(
      async () => {
        const [r, b] = await Promise.all([
          api.calls.rendList({ active: 1, bucket: bucketId }),
          api.calls.billingStatus({ client: clientId }).catch(() => null),
        ]);
        setRends(r.rend.list);
        setProject(r.bucket?.name);
        if (b) setBilling(b.billing);
        return changed([r.rend.list, b?.billing]);
      },
      {
        onError: (e) => {
          if (isApiError(e) && e.isAuth) return p.stop();
          if (!failedOnce) notify(MESSAGES.fetchUploads, 'error');
          failedOnce = true;
        },
      },
    );
    poller.current = p;
    void p.reload();
    return () => p.stop();
  }, [clientId, bucketId]);
  const reload = async () => {
    setReloading(true);
    try {
      await poller.current?.reload();
    } finally {
      setReloading(false);
    }
  };
  /** A quiet check (no busy Reload button), for following an upload the user just made. */
  const refresh = () => poller.current?.reload() ?? Promise.resolve();
  return { rends, billing, project, reload, reloading, refresh };
}

export default function CreateShrinkRunPage() {
  const { clientId = '', bucketId = '' } = useParams();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const view = (['pick', 'upload'].includes(search.get('view') ?? '') ? search.get('view') : 'main') as View;
  const go = (v: View) => setSearch(v === 'main' ? {} : { view: v });
  const client = useClient(clientId);
  const plan = client?.plan ?? 'Individual';
  const data = useShrinkData(clientId, bucketId);
  useCrumbNames({ client: client?.name, project: data.project });
  const uploader = useUploader(bucketId);

  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  const [upload, setUpload] = useState<string>('');
  const [errors, setErrors] = useState<{ name?: string | null; desc?: string | null; upload?: string | null }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = (stamp: string) => {
    setUpload(stamp);
    setErrors((e) => ({ ...e, upload: null }));
  };

  const ready = useMemo(() => data.rends?.filter((r) => r.flight === 'Ready') ?? [], [data.rends]);
  const chosen = data.rends?.find((r) => r.stamp === upload);
  const estimate = chosen ? estimatePriceCents(chosen.upload.list) : 0;
  // A model the user just uploaded is analysed within seconds: follow it closely rather than at the picker's 20 s pace.
  useRefreshWhile(chosen?.flight === 'Pending' || chosen?.flight === 'Processing', data.refresh, 2000);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = {
      name: checkTitle(name, 'create'),
      desc: checkDescription(desc),
      upload: !upload ? MESSAGES.selectUpload : chosen?.flight !== 'Ready' ? (chosen ? MESSAGES.selectUpload : MESSAGES.uploadNotFound) : null,
    };
    setErrors(errs);
    if (errs.name || errs.desc || errs.upload) return;
    setBusy(true);
    setFailure(null);
    try {
      const quoteId = await createShrinkRequest(api, { bucket: bucketId, upload, name, desc });
      navigate(screenPath('quoteDetails', { clientId, bucketId, quoteId }));
    } catch (x) {
      if (isApiError(x) && x.isAuth) return;
      setFailure(isApiError(x) ? x.detail : MESSAGES.createRequest);
      notify(isApiError(x) ? x.display : MESSAGES.createRequest, 'error');
    } finally {
      setBusy(false);
    }
  };

  const reloadButton = (
    <Button variant="outlined" size="small" onClick={() => void data.reload()} disabled={data.reloading}>
      {data.reloading ? 'Reloading…' : 'Reload'}
    </Button>
  );

  if (view === 'pick') {
    return (
      <Page title="Pick an upload" actions={<>{reloadButton}<Button onClick={() => go('main')}>Back</Button></>}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Only Ready uploads can be chosen. This list refreshes by itself; Reload checks at once.
        </Typography>
        <DataTable<Rend>
          label="Ready uploads"
          rows={ready}
          loading={data.rends === undefined}
          rowKey={(r) => r.stamp}
          empty={MESSAGES.noUploads}
          columns={[
            { id: 'name', label: 'Name', value: (r) => r.name },
            { id: 'items', minWidth: 200, label: 'Files', value: (r) => r.upload.list.map((i) => i.name).join(' '), render: (r) => <RendItems rend={r} /> },
            { id: 'price', label: 'Estimate', value: (r) => estimatePriceCents(r.upload.list), render: (r) => formatDollars(estimatePriceCents(r.upload.list)) },
            { id: 'createdAt', label: 'Created', nowrap: true, value: (r) => r.createdAt, render: (r) => formatTime(r.createdAt) },
          ]}
          actions={(r) => (
            <Button size="small" variant="contained" onClick={() => { choose(r.stamp); go('main'); }} aria-label={`Select ${r.name}`}>
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
          disabled={uploader.busy}
          onFiles={async (files) => {
            const rend = await uploader.upload(files);
            if (rend) {
              choose(rend);
              await data.reload();
              go('main');
            }
          }}
        />
        <UploadBars progress={uploader.progress} onCancel={uploader.cancel} />
      </Page>
    );
  }

  return (
    <Page title="Create Shrink Request" maxWidth={880}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={1}>
          <FormFailure message={failure} />
          <TextField label="Request name" name="name" value={name} onChange={(e) => setName(e.target.value)} error={!!errors.name} helperText={errors.name ?? ' '} required fullWidth autoFocus slotProps={{ htmlInput: { maxLength: TITLE_MAX } }} />
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
            <Typography>Estimated price: {formatDollars(estimate)}</Typography>
            <Box sx={{ mt: 1 }}>
              <BillingSummary billing={data.billing} />
            </Box>
          </Section>
          <FormActions label="Create Quote" busy={busy} onCancel={() => navigate(screenPath('runs', { clientId, bucketId }))} />
        </Stack>
      </form>
    </Page>
  );
}
