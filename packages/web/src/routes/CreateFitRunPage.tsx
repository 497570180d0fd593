// Create a request with model training: name, the three sizes within the plan, task, explainability, a Ready upload.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Box, Checkbox, FormControlLabel, FormHelperText, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import {
  checkFitRequest,
  CONTACT_PATH,
  createFitRequest,
  DEFAULT_TASK,
  extensionOf,
  isApiError,
  isUpgradeMessage,
  MESSAGES,
  PLAN_LIMITS,
  screenPath,
  TASKS,
  TITLE_MAX,
  type FitRequestInput,
  type PlanName,
  type Rend,
  type TaskName,
} from '@portal/core';
import { Page, Section } from '../components/Page';
import { FileDrop, UploadBars } from '../components/FileDrop';
import { useUploader } from '../components/useUploader';
import { api } from '../lib/api';
import { notify } from '../lib/notify';
import { useLoad } from '@portal/core/react';
import { useClient, useCrumbNames } from '../layout/ChromeContext';
import { FormFailure } from '../components/FormFailure';
import { FormActions } from '../components/FormActions';

type SizeField = 'inputs' | 'outputs' | 'target';

/** "Input column size (1-3)"; a size that can only be 1 says so plainly. */
const sizeLabel = (label: string, max: number) => (max === 1 ? `${label} (1)` : `${label} (1-${max})`);

function Helper({ message, plan }: { message: string | undefined; plan: PlanName }): ReactNode {
  if (!message) return ' ';
  if (!isUpgradeMessage(message, plan)) return message;
  return (
    <>
      {message}.{' '}
      <Link href={CONTACT_PATH} target="_blank" rel="noopener" sx={{ color: 'inherit', fontWeight: 600 }}>
        Upgrade
      </Link>
    </>
  );
}

export default function CreateFitRunPage() {
  const { clientId = '', bucketId = '' } = useParams();
  const navigate = useNavigate();
  const client = useClient(clientId);
  const plan: PlanName = client?.plan ?? 'Individual';
  const limits = PLAN_LIMITS[plan];
  const [form, setForm] = useState<FitRequestInput>({ name: '', inputs: '', outputs: '', target: '1', explainability: false, upload: '' });
  const [task, setTask] = useState<TaskName>(DEFAULT_TASK);
  const [errors, setErrors] = useState<Partial<Record<keyof FitRequestInput, string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const uploader = useUploader(bucketId);

  const uploads = useLoad(
    async (signal) => {
      const r = await api.calls.rendList({ active: 1, bucket: bucketId }, { signal });
      if (waitingFor) {
        const mine = r.rend.list.find((x) => x.stamp === waitingFor);
        if (mine?.flight === 'Ready') {
          setForm((f) => ({ ...f, upload: mine.stamp }));
          setWaitingFor(null);
        } else if (mine?.flight === 'Failed') setWaitingFor(null);
      }
      return r;
    },
    [bucketId, waitingFor],
    {
      failure: MESSAGES.fetchUploads,
      pollMs: waitingFor ? 2000 : undefined,
      until: (r) => !waitingFor || r.rend.list.some((x) => x.stamp === waitingFor && x.flight !== 'Pending' && x.flight !== 'Processing'),
    },
  );
  useCrumbNames({ client: client?.name, project: uploads.data?.bucket?.name });
  const ready: Rend[] = uploads.data?.rend.list.filter((r) => r.flight === 'Ready') ?? [];
  const pending = waitingFor ? uploads.data?.rend.list.find((r) => r.stamp === waitingFor) : undefined;

  const update = <K extends keyof FitRequestInput>(k: K, v: FitRequestInput[K]) => {
    const next = { ...form, [k]: v };
    setForm(next);
    if (submitted) setErrors(checkFitRequest(next, plan));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const errs = checkFitRequest(form, plan);
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    const chosen = ready.find((r) => r.stamp === form.upload);
    if (!chosen) {
      setErrors({ upload: MESSAGES.uploadNotFound });
      return;
    }
    // Training and generating read the upload's .json data: an upload without one cannot be used.
    if (!chosen.upload.list.some((i) => i.state === 'Finished' && extensionOf(i.name) === '.json')) {
      setErrors({ upload: MESSAGES.generateFileNotFound });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const runId = await createFitRequest(api, {
        bucket: bucketId,
        upload: form.upload!,
        name: form.name,
        param: {
          explainability: form.explainability,
          input_column_size: Number(form.inputs),
          output_column_size: Number(form.outputs),
          task_target_size: Number(form.target),
          task,
        },
      });
      navigate(screenPath('runDetails', { clientId, bucketId, runId }));
    } catch (x) {
      if (isApiError(x) && x.isAuth) return;
      const message = isApiError(x) ? x.display : MESSAGES.createRequest;
      setFailure(isApiError(x) ? x.detail : message);
      notify(message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const size = (f: SizeField, label: string, max: number) => (
    <TextField
      label={label}
      name={f}
      type="number"
      value={form[f] ?? ''}
      onChange={(e) => update(f, e.target.value)}
      error={!!errors[f]}
      helperText={<Helper message={errors[f]} plan={plan} />}
      required
      slotProps={{ htmlInput: { min: 1, max, step: 1, inputMode: 'numeric' } }}
      sx={{ flex: 1, minWidth: 160 }}
    />
  );

  return (
    <Page title="Create Request" maxWidth={880}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={1}>
          <FormFailure message={failure} />
          <TextField
            label="Request name"
            name="name"
            value={form.name}
            onChange={(e) => update('name', e.target.value)}
            error={!!errors.name}
            helperText={errors.name ?? ' '}
            required
            fullWidth
            autoFocus
            slotProps={{ htmlInput: { maxLength: TITLE_MAX } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {size('inputs', sizeLabel('Input column size', limits.inputColumns), limits.inputColumns)}
            {size('outputs', sizeLabel('Output column size', limits.outputColumns), limits.outputColumns)}
            {size('target', sizeLabel('Task target size', limits.taskTargetSize), limits.taskTargetSize)}
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              select
              label="Task"
              name="task"
              value={task}
              onChange={(e) => setTask(e.target.value as TaskName)}
              sx={{ minWidth: 200 }}
              helperText=" "
            >
              {TASKS.map((t) => (
                <MenuItem key={t} value={t}>
                  {t}
                </MenuItem>
              ))}
            </TextField>
            <Box>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.explainability}
                    disabled={!limits.explainability}
                    onChange={(e) => update('explainability', e.target.checked)}
                    name="explainability"
                  />
                }
                label="Explainability"
              />
              <FormHelperText error={!!errors.explainability}>
                {errors.explainability ?? (!limits.explainability ? 'Not available on the Individual plan.' : ' ')}
              </FormHelperText>
            </Box>
          </Stack>
          <TextField
            select
            label="Upload"
            name="upload"
            value={ready.some((r) => r.stamp === form.upload) ? form.upload : ''}
            onChange={(e) => update('upload', e.target.value)}
            error={!!errors.upload}
            helperText={
              errors.upload ??
              (ready.length === 0 ? 'No Ready uploads yet: upload a .json file below.' : 'Only Ready uploads can be chosen.')
            }
            required
            fullWidth
          >
            {ready.map((r) => (
              <MenuItem key={r.stamp} value={r.stamp}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          <Section title="Or upload a new .json file">
            <FileDrop
              context="fit"
              plan={plan}
              disabled={uploader.busy || !!waitingFor}
              onFiles={async (files) => {
                const rend = await uploader.upload(files);
                if (rend) setWaitingFor(rend);
              }}
            />
            <UploadBars progress={uploader.progress} onCancel={uploader.cancel} />
            {pending && (
              <Typography role="status" sx={{ mt: 1 }}>
                {pending.name}: {pending.flight}
              </Typography>
            )}
          </Section>
          <FormActions label="Create Request" busy={busy} onCancel={() => navigate(screenPath('runs', { clientId, bucketId }))} />
        </Stack>
      </form>
    </Page>
  );
}
