// Rename and remove for any list: the dialogs, the calls, SPEC's failure notices, and a reload on success.
import { useState } from 'react';
import { Button } from '@mui/material';
import { isApiError } from '@portal/core';
import { ConfirmDialog, NameDialog } from './Dialogs';
import { notify } from '../lib/notify';

interface Target {
  id: string;
  name: string;
}

interface Options {
  /** What the list holds, for the dialogs' titles, e.g. "project". */
  noun: string;
  rename(id: string, name: string): Promise<unknown>;
  remove(id: string): Promise<unknown>;
  renameFailure?: string;
  removeFailure?: string;
  after(): Promise<unknown> | void;
}

/** Runs an action, notifying SPEC's failure message; resolves to null on success or the message shown. */
export async function attempt(action: () => Promise<unknown>, failure?: string): Promise<string | null> {
  try {
    await action();
    return null;
  } catch (e) {
    if (isApiError(e) && e.isAuth) return e.display;
    const message = failure ?? (isApiError(e) ? e.display : (e as Error).message);
    notify(message, 'error');
    return message;
  }
}

export function useListEditing(o: Options) {
  const [renaming, setRenaming] = useState<Target | null>(null);
  const [removing, setRemoving] = useState<Target | null>(null);

  const buttons = (t: Target) => (
    <>
      <Button size="small" onClick={() => setRenaming(t)} aria-label={`Rename ${t.name}`}>
        Rename
      </Button>
      <Button size="small" color="error" onClick={() => setRemoving(t)} aria-label={`Remove ${t.name}`}>
        Remove
      </Button>
    </>
  );

  const dialogs = (
    <>
      <NameDialog
        open={!!renaming}
        mode="rename"
        title={`Rename ${o.noun}`}
        initial={renaming?.name ?? ''}
        onClose={() => setRenaming(null)}
        onSubmit={async (name) => {
          const id = renaming!.id;
          const failed = await attempt(() => o.rename(id, name), o.renameFailure);
          if (!failed) await o.after();
          return failed;
        }}
      />
      <ConfirmDialog
        open={!!removing}
        title={`Remove ${o.noun}?`}
        text={`"${removing?.name ?? ''}" will be removed from the list.`}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          const id = removing!.id;
          const failed = await attempt(() => o.remove(id), o.removeFailure);
          if (!failed) await o.after();
        }}
      />
    </>
  );

  return { buttons, dialogs };
}
