// A list's selection: checkboxes on rows (Shift+click for a range, as a file manager does), "Remove selected" with
// one confirmation, and core's removeMany (one call per row, one notice, one Undo for all).
import { useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Button, Checkbox, Stack, Typography } from '@mui/material';
import { ConfirmDialog } from '../Dialogs';

export interface RemoveMany {
  /** One row in the confirmation ("project"). */
  noun: string;
  run: (ids: string[]) => Promise<string | null>;
}

export interface Selection {
  selected: ReadonlySet<string>;
  allChosen: boolean;
  someChosen: boolean;
  pickAll(): void;
  /** The row's checkbox. */
  checkbox(key: string): ReactNode;
  /** The bar over the list while rows are chosen, and its confirmation. */
  bar: ReactNode;
}

export function useSelection(opts: {
  label: string;
  /** Every row's key (rows gone from the list drop out of the selection). */
  present: readonly string[];
  /** The keys of the rows on screen, in order (Shift+click ranges and "select all" work on these). */
  visible: readonly string[];
  nameOfKey: (key: string) => string;
  removeMany?: RemoveMany;
}): Selection {
  const { label, visible, nameOfKey, removeMany } = opts;
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [confirming, setConfirming] = useState(false);
  const anchor = useRef<string | null>(null);
  const present = useMemo(() => new Set(opts.present), [opts.present]);
  const chosen = [...selected].filter((k) => present.has(k));
  const allChosen = visible.length > 0 && visible.every((k) => selected.has(k));

  const pick = (key: string, e: MouseEvent | { shiftKey: boolean }) => {
    setSelected((prev) => {
      const next = new Set(prev);
      const on = !prev.has(key);
      const from = anchor.current ? visible.indexOf(anchor.current) : -1;
      const to = visible.indexOf(key);
      const range = e.shiftKey && from >= 0 && to >= 0 ? visible.slice(Math.min(from, to), Math.max(from, to) + 1) : [key];
      for (const k of range) {
        if (on) next.add(k);
        else next.delete(k);
      }
      return next;
    });
    anchor.current = key;
  };
  const pickAll = () =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const k of visible) {
        if (allChosen) next.delete(k);
        else next.add(k);
      }
      return next;
    });
  const checkbox = (key: string) => (
    <Checkbox
      size="small"
      checked={selected.has(key)}
      onClick={(e) => pick(key, e)}
      slotProps={{ input: { 'aria-label': `Select ${nameOfKey(key)}` } }}
      sx={{ p: 0.5 }}
    />
  );

  const noun = removeMany?.noun ?? '';
  const bar = removeMany && (
    <>
      {chosen.length > 0 && (
        <Stack
          direction="row"
          role="region"
          aria-label={`Selected ${label.toLowerCase()}`}
          sx={{ mb: 1, gap: 1, alignItems: 'center', flexWrap: 'wrap', px: 1.5, py: 0.75, borderRadius: 1, bgcolor: 'action.selected' }}
        >
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {chosen.length} selected
          </Typography>
          <Button size="small" color="error" variant="contained" onClick={() => setConfirming(true)}>
            Remove selected
          </Button>
          <Button size="small" color="inherit" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        </Stack>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Remove ${chosen.length} ${chosen.length === 1 ? noun : `${noun}s`}?`}
        text={`${chosen
          .map((k) => `"${nameOfKey(k)}"`)
          .slice(0, 5)
          .join(', ')}${chosen.length > 5 ? ` and ${chosen.length - 5} more` : ''} will be removed from the list.`}
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          const failed = await removeMany.run(chosen);
          if (!failed) setSelected(new Set());
          return failed;
        }}
      />
    </>
  );
  return { selected, allChosen, someChosen: !allChosen && visible.some((k) => selected.has(k)), pickAll, checkbox, bar };
}
