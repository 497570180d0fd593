// The notification stack (notistack) with SPEC's durations: default 20 s, errors 5 s, upload success 10 s.
import { enqueueSnackbar } from 'notistack';
import { NOTIFY_MS } from '@portal/core';

export type NotifyKind = 'default' | 'error' | 'success' | 'uploadSuccess';

export function notify(message: string, kind: NotifyKind = 'default'): void {
  const variant = kind === 'uploadSuccess' ? 'success' : kind;
  const autoHideDuration = kind === 'error' ? NOTIFY_MS.error : kind === 'uploadSuccess' ? NOTIFY_MS.uploadSuccess : NOTIFY_MS.default;
  enqueueSnackbar(message, { variant, autoHideDuration });
}

export const notifier = { notify };
