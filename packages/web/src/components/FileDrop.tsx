// A drop zone (react-dropzone) with SPEC's checks per context: file count, the plan's size, allowed extensions.
import { useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import {
  checkDropFiles,
  formatSize,
  PLAN_LIMITS,
  SAMPLE_TABLE_NAME,
  SAMPLE_TABLE_NOTE,
  sampleTableText,
  TABLE_SHAPES_NOTE,
  takesTableText,
  UPLOAD_CONTEXTS,
  type PlanName,
  type UploadContext,
  type UploadProgress,
} from '@portal/core';
import type { UploadBatch } from '@portal/core/react';
import { notify } from '../lib/notify';

interface Props {
  context: UploadContext;
  plan: PlanName;
  disabled?: boolean;
  /** Files that passed the checks. */
  onFiles(files: File[]): void;
  label?: string;
}

export function FileDrop({ context, plan, disabled, onFiles, label }: Props) {
  const [error, setError] = useState<string | null>(null);
  const ctx = UPLOAD_CONTEXTS[context];
  const accepted = ctx.extensions.join(', ');
  const onDrop = (files: File[]) => {
    if (files.length === 0) return;
    const message = checkDropFiles(files, context, plan);
    setError(message);
    if (message) {
      notify(message, 'error');
      return;
    }
    onFiles(files);
  };
  // Our own checks give SPEC's messages, so the drop zone itself lets every file through.
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop,
    disabled,
    noClick: true,
    noKeyboard: true,
    multiple: ctx.maxFiles > 1,
  });
  const title = label ?? (ctx.maxFiles > 1 ? 'Drop files here' : 'Drop a file here');
  const tables = takesTableText(context);
  const sample = () => onFiles([new File([sampleTableText()], SAMPLE_TABLE_NAME, { type: 'application/json' })]);
  return (
    <Box>
      <Box
        {...getRootProps()}
        sx={{
          border: '2px dashed',
          borderColor: isDragActive ? 'primary.main' : 'divider',
          borderRadius: 2,
          p: { xs: 2, sm: 3 },
          textAlign: 'center',
          bgcolor: isDragActive ? 'rgba(77,182,172,0.08)' : 'transparent',
        }}
      >
        <input {...getInputProps()} aria-label={`Choose ${ctx.maxFiles > 1 ? 'files' : 'a file'} to upload`} />
        <Typography sx={{ mb: 1 }}>{title}</Typography>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'center', flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={open} disabled={disabled}>
            {ctx.maxFiles > 1 ? 'Choose files' : 'Choose a file'}
          </Button>
          {tables && (
            <Button onClick={sample} disabled={disabled}>
              Use sample data
            </Button>
          )}
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Allowed: {accepted}
          {tables ? ', .csv, .tsv' : ''}. Up to {ctx.maxFiles} {ctx.maxFiles > 1 ? 'files' : 'file'},{' '}
          {formatSize(PLAN_LIMITS[plan].maxFileSize)} each on the {plan} plan.
        </Typography>
        {tables && (
          <Typography variant="body2" color="text.secondary">
            {TABLE_SHAPES_NOTE} {SAMPLE_TABLE_NOTE}
          </Typography>
        )}
      </Box>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}

/** One batch of files being uploaded: a progress bar per file and, when it can be stopped, a Cancel button. */
export function UploadBars({ progress, onCancel }: { progress: UploadProgress[]; onCancel?: () => void }) {
  if (progress.length === 0) return null;
  const what = progress.length === 1 ? progress[0]!.file : `${progress.length} files`;
  return (
    <Box component="section" aria-label={`Uploading ${what}`} sx={{ mt: 2, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          Uploading {what}
        </Typography>
        {onCancel && (
          <Button size="small" color="error" variant="outlined" onClick={onCancel} aria-label={`Cancel upload of ${what}`}>
            Cancel
          </Button>
        )}
      </Stack>
      <Stack spacing={1}>
        {progress.map((p) => {
          const pct = p.total > 0 ? Math.round((p.loaded / p.total) * 100) : 100;
          return (
            <Box key={`${p.index}-${p.file}`}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {p.file}: {pct}%
              </Typography>
              <LinearProgress variant="determinate" value={pct} aria-label={`Uploading ${p.file}`} />
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}

/** The groups being sent (core's `useUploads` batches), each with its bars and its Cancel. */
export function UploadBatches({ batches }: { batches: readonly UploadBatch[] }) {
  return (
    <>
      {batches.map((b) => (
        <UploadBars key={b.id} progress={b.progress} onCancel={b.cancel} />
      ))}
    </>
  );
}
