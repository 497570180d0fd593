// The notification stack (notistack) with SPEC's durations: default 20 s, errors 5 s, upload success 10 s. A notice may
// carry one action (Undo after a removal), shown beside its dismiss button for as long as the notice stays.
import { closeSnackbar, enqueueSnackbar, type SnackbarKey } from 'notistack';
import { notifyMs } from '@portal/core';
import type { NotifyAction, NotifyKind } from '@portal/core/react';

export type { NotifyKind };

/** The dismiss button every notice has (a notice can be closed before its time is up). */
export const dismissButton = (key: SnackbarKey) => (
  <button type="button" className="portal-notice-close" aria-label="Dismiss notification" onClick={() => closeSnackbar(key)}>
    ×
  </button>
);

export function notify(message: string, kind: NotifyKind = 'default', opts: { action?: NotifyAction } = {}): void {
  const variant = kind === 'uploadSuccess' ? 'success' : kind;
  const autoHideDuration = notifyMs(kind);
  const extra = opts.action;
  enqueueSnackbar(message, {
    variant,
    autoHideDuration,
    action: extra
      ? (key) => (
          <>
            <button
              type="button"
              className="portal-notice-action"
              onClick={() => {
                closeSnackbar(key);
                void extra.run();
              }}
            >
              {extra.label}
            </button>
            {dismissButton(key)}
          </>
        )
      : undefined,
  });
}

export const notifier = { notify };
