// Create a request with model training (name, a Ready upload, then its columns: target, inputs within the plan, task,
// and the three sizes they make; an upload without named columns takes the sizes typed) or reusing one of the
// project's Finished models or a general model (name, the model, a Ready upload); a model that needs a key says so.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import {
  Box,
  Checkbox,
  FormControlLabel,
  FormHelperText,
  Link,
  ListItemText,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  checkFitRequest,
  DEFAULT_TASK,
  isTextEmbeddingModel,
  TEXT_EMBEDDING_MESSAGES,
  OPENAI_DEFAULT_DIMENSIONS,
  OPENAI_MAX_DIMENSIONS,
  PLAN_LIMITS,
  screenPath,
  TASKS,
  type FitRequestInput,
  type PlanName,
  type TaskName,
} from '@portal/core';
import { useFitRequest, useUploads } from '@portal/core/react';
import { Page, Section } from '../components/Page';
import { TitleField } from '../components/TitleField';
import { FileDrop, UploadBatches } from '../components/FileDrop';
import { FitColumnsPicker, PlanHelper } from '../components/FitColumnsPicker';
import { useLeaveWarning } from '../lib/useLeaveWarning';
import { useCrumbNames } from '../layout/ChromeContext';
import { FormFailure } from '../components/FormFailure';
import { FormActions } from '../components/FormActions';
import { ProjectNotFound } from '../components/NotFound';

type SizeField = 'inputs' | 'outputs' | 'target';

/** "Input column size (1-3)"; a size that can only be 1 says so plainly. */
const sizeLabel = (label: string, max: number) => (max === 1 ? `${label} (1)` : `${label} (1-${max})`);

export default function CreateFitRunPage() {
  const { clientId = '', projectId = '' } = useParams();
  const navigate = useNavigate();
  const fit = useFitRequest(clientId, projectId);
  const plan: PlanName = fit.plan;
  const limits = PLAN_LIMITS[plan];
  const [form, setForm] = useState<Omit<FitRequestInput, 'upload'>>({
    name: '',
    inputs: '',
    outputs: '',
    target: '1',
    explainability: false,
  });
  const [task, setTask] = useState<TaskName>(DEFAULT_TASK);
  const [errors, setErrors] = useState<Partial<Record<keyof FitRequestInput | 'model' | 'dimensions', string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Train a new model, or reuse a Finished one of the project (only the generate run is made).
  const [mode, setMode] = useState<'train' | 'reuse'>('train');
  const [model, setModel] = useState('');
  const [dimensions, setDimensions] = useState('');
  const uploads = useUploads(clientId, projectId);
  useLeaveWarning(uploads.uploading);
  useCrumbNames({ client: fit.clientName, project: fit.project });
  const ready = fit.readyUploads;
  const pending = fit.following;

  // The chosen upload's analysis fills in the column sizes, until the user types their own.
  const typedSizes = useRef(false);
  const suggested = fit.suggestedSizes;
  useEffect(() => {
    if (!suggested || typedSizes.current) return;
    setForm((f) => ({ ...f, inputs: String(suggested.inputs), outputs: String(suggested.outputs) }));
  }, [suggested]);

  const update = <K extends keyof typeof form>(k: K, v: (typeof form)[K]) => {
    if (k === 'inputs' || k === 'outputs') typedSizes.current = true;
    const next = { ...form, [k]: v };
    setForm(next);
    // With named columns the sizes are the picks' (core's useFitColumns), not the form's.
    const sizes = fit.columns.columns.length ? { inputs: fit.columns.sizes.inputs, outputs: fit.columns.sizes.outputs, target: 1 } : {};
    if (submitted) setErrors(checkFitRequest({ ...next, ...sizes, upload: fit.upload }, plan));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setBusy(true);
    setFailure(null);
    const upload = fit.upload || null;
    const res =
      mode === 'reuse' ? await fit.reuse({ name: form.name, model, upload, dimensions }) : await fit.submit({ ...form, upload, task });
    setBusy(false);
    if ('runId' in res) return navigate(screenPath('runDetails', { clientId, projectId, runId: res.runId }));
    setErrors(res.fieldErrors ?? {});
    // A failed call (already notified) is also written on the form; a field's problem is shown beside the field.
    if (!res.fieldErrors) setFailure(res.detail ?? res.error);
  };

  const size = (f: SizeField, label: string, max: number) => (
    <TextField
      label={label}
      name={f}
      type="number"
      value={form[f] ?? ''}
      onChange={(e) => update(f, e.target.value)}
      error={!!errors[f]}
      helperText={<PlanHelper message={errors[f]} plan={plan} />}
      required
      slotProps={{ htmlInput: { min: 1, max, step: 1, inputMode: 'numeric' } }}
      sx={{ flex: 1, minWidth: 160 }}
    />
  );

  if (fit.missing) return <ProjectNotFound clientId={clientId} />;

  const cols = fit.columns;
  const named = cols.columns.length > 0;
  const chosenName = ready.find((r) => r.stamp === fit.upload)?.name ?? '';
  const integrations = screenPath('integrations', { clientId });
  const explainability = (
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
  );

  return (
    <Page title="Create Request" maxWidth={880}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={1}>
          <FormFailure message={failure} />
          <RadioGroup row name="mode" value={mode} onChange={(e) => setMode(e.target.value as 'train' | 'reuse')} aria-label="Model">
            <FormControlLabel value="train" control={<Radio />} label="Train a new model" />
            <FormControlLabel value="reuse" control={<Radio />} label="Reuse a trained model" />
          </RadioGroup>
          <TitleField label="Request name" value={form.name} onChange={(v) => update('name', v)} error={errors.name} />
          {mode === 'reuse' ? (
            <TextField
              select
              label="Model"
              name="model"
              value={fit.reusable.some((m) => m.stamp === model) ? model : ''}
              onChange={(e) => setModel(e.target.value)}
              error={!!errors.model}
              helperText={
                errors.model ??
                (fit.reusable.length === 0
                  ? 'No models to reuse yet: train one first.'
                  : "The project's Finished models, then the general models (they need no training).")
              }
              required
              fullWidth
            >
              {fit.reusable.map((m) =>
                fit.needsKey(m.stamp) ? (
                  // Cannot be picked without a key: it says so, and the way to add one is one click away.
                  <MenuItem key={m.stamp} value={m.stamp} disabled sx={{ '&.Mui-disabled': { opacity: 1 } }}>
                    <ListItemText
                      primary={<Box sx={{ opacity: 0.5 }}>{m.name}</Box>}
                      secondary={
                        <>
                          {TEXT_EMBEDDING_MESSAGES.noKey}{' '}
                          <Link component={RouterLink} to={integrations} sx={{ pointerEvents: 'auto' }}>
                            Open Integrations
                          </Link>
                        </>
                      }
                    />
                  </MenuItem>
                ) : (
                  <MenuItem key={m.stamp} value={m.stamp}>
                    {m.name}
                  </MenuItem>
                ),
              )}
            </TextField>
          ) : null}
          {mode === 'reuse' && fit.reusable.some((m) => fit.needsKey(m.stamp)) ? (
            <Typography variant="body2" color="text.secondary">
              {TEXT_EMBEDDING_MESSAGES.noKey}{' '}
              <Link component={RouterLink} to={integrations}>
                Open Integrations
              </Link>
            </Typography>
          ) : null}
          {mode === 'reuse' && isTextEmbeddingModel(model) ? (
            <TextField
              label="Dimensions"
              name="dimensions"
              type="number"
              value={dimensions}
              onChange={(e) => setDimensions(e.target.value)}
              error={!!errors.dimensions}
              helperText={
                errors.dimensions ??
                `Values per vector, 1 to ${OPENAI_MAX_DIMENSIONS.toLocaleString('en-US')}; empty: ${OPENAI_DEFAULT_DIMENSIONS.toLocaleString('en-US')}. Texts go to OpenAI with your newest OpenAI integration key.`
              }
              slotProps={{ htmlInput: { min: 1, max: OPENAI_MAX_DIMENSIONS, step: 1, inputMode: 'numeric' } }}
            />
          ) : null}
          <TextField
            select
            label="Upload"
            name="upload"
            value={ready.some((r) => r.stamp === fit.upload) ? fit.upload : ''}
            onChange={(e) => fit.choose(e.target.value)}
            error={!!errors.upload}
            helperText={
              errors.upload ?? (ready.length === 0 ? 'No Ready uploads yet: upload a table below.' : 'Only Ready uploads can be chosen.')
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
          <Section title="Or upload a new table">
            <FileDrop
              context="fit"
              plan={plan}
              disabled={uploads.uploading || !!pending}
              onFiles={async (files) => {
                // The form follows the new upload itself (its status line, chosen once Ready).
                const { upload } = await uploads.upload(files, { follow: false });
                if (upload) fit.follow(upload);
              }}
            />
            <UploadBatches batches={uploads.batches} />
            {pending && (
              <Typography role="status" sx={{ mt: 1 }}>
                {pending.name}: {pending.flight}
              </Typography>
            )}
          </Section>
          {mode === 'train' && named ? (
            <>
              <FitColumnsPicker state={cols} plan={plan} upload={chosenName} errors={errors} submitted={submitted} />
              {explainability}
            </>
          ) : null}
          {mode === 'train' && !named && cols.loading ? (
            <Typography role="status" color="text.secondary">
              Reading the columns of {chosenName}…
            </Typography>
          ) : null}
          {mode === 'train' && !named && !cols.loading ? (
            <>
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
                {explainability}
              </Stack>
            </>
          ) : null}
          <FormActions label="Create Request" busy={busy} onCancel={() => navigate(screenPath('runs', { clientId, projectId }))} />
        </Stack>
      </form>
    </Page>
  );
}
