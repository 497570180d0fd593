// The notification stack (notistack) with SPEC's durations: default 20 s, errors 5 s, upload success 10 s.
import { enqueueSnackbar } from 'notistack';
import { notifyMs } from '@portal/core';
import type { NotifyKind } from '@portal/core/react/context';

export type { NotifyKind };

export function notify(message: string, kind: NotifyKind = 'default'): void {
  const variant = kind === 'uploadSuccess' ? 'success' : kind;
  enqueueSnackbar(message, { variant, autoHideDuration: notifyMs(kind) });
}

export const notifier = { notify };
