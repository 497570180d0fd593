// Rename and remove for any list: the dialogs over a core list hook's actions (which check, call, notify and reload).
import { useState } from 'react';
import { Button } from '@mui/material';
import type { ListActions } from '@portal/core/react';
import { ConfirmDialog, NameDialog } from './Dialogs';

interface Target {
  id: string;
  name: string;
}

/** `noun` names what the list holds in the dialogs' titles, e.g. "project". */
export function useListEditing(noun: string, actions: ListActions) {
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
        title={`Rename ${noun}`}
        initial={renaming?.name ?? ''}
        onClose={() => setRenaming(null)}
        onSubmit={(name) => actions.rename(renaming!.id, name)}
      />
      <ConfirmDialog
        open={!!removing}
        title={`Remove ${noun}?`}
        text={`"${removing?.name ?? ''}" will be removed from the list.`}
        onClose={() => setRemoving(null)}
        onConfirm={() => actions.remove(removing!.id)}
      />
    </>
  );

  return { buttons, dialogs };
}
