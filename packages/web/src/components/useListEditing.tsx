// Rename and remove for any list: a compact row menu and the dialogs over a core list hook's actions (which check,
// call, notify and reload), plus the list's "Remove selected" when the hook can remove many at once.
import { useState } from 'react';
import { IconButton, Menu, MenuItem, SvgIcon, Tooltip } from '@mui/material';
import type { ListActions } from '@portal/core/react';
import { ConfirmDialog, NameDialog } from './Dialogs';

interface Target {
  id: string;
  name: string;
}

function MoreIcon() {
  return (
    <SvgIcon fontSize="small" aria-hidden="true">
      <path d="M12 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 2a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm0 6a2 2 0 1 0 0 4 2 2 0 0 0 0-4z" />
    </SvgIcon>
  );
}

/** A row's secondary actions behind one icon button, so the actions column stays narrow and covers nothing. */
export function RowMenu({ name, items }: { name: string; items: Array<{ label: string; danger?: boolean; run: () => void }> }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title="More actions">
        <IconButton size="small" aria-label={`More actions for ${name}`} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
          <MoreIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {items.map((it) => (
          <MenuItem
            key={it.label}
            onClick={() => {
              setAnchor(null);
              it.run();
            }}
            sx={it.danger ? { color: 'error.main' } : undefined}
          >
            {it.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** `noun` names what the list holds in the dialogs' titles, e.g. "project". */
export function useListEditing(noun: string, actions: ListActions) {
  const [renaming, setRenaming] = useState<Target | null>(null);
  const [removing, setRemoving] = useState<Target | null>(null);

  const buttons = (t: Target) => (
    <RowMenu
      name={t.name}
      items={[
        { label: 'Rename', run: () => setRenaming(t) },
        { label: 'Remove', danger: true, run: () => setRemoving(t) },
      ]}
    />
  );

  const dialogs = (
    <>
      <NameDialog
        open={!!renaming}
        mode="rename"
        title={`Rename ${noun}`}
        initial={renaming?.name ?? ''}
        onClose={() => setRenaming(null)}
        onSubmit={(name) => actions.rename(renaming!.id, name, { inline: true })}
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

  const { removeMany } = actions;
  /** EntityTable's `removeMany`: every row the hook can remove, together. */
  const selection = removeMany ? { noun, run: (ids: string[]) => removeMany(ids) } : undefined;

  return { buttons, dialogs, selection };
}
