// Cells every list shares: a long value cut to one line (whole in a tooltip), an id with a copy button, a status chip;
// and the head of a small table of details.
import { useEffect, useRef, useState } from 'react';
import { Box, Chip, IconButton, SvgIcon, TableCell, TableHead, TableRow, Tooltip } from '@mui/material';
import { COPIED_RESET_MS, MESSAGES, statusTone, type StatusTone } from '@portal/core';
import { notify } from '../lib/notify';

/** One line with an ellipsis; the whole text in a tooltip on hover and focus, and for screen readers as it is. */
export function Ellipsis({ text }: { text: string }) {
  return (
    <Tooltip title={text} placement="bottom-start" enterDelay={300} describeChild disableInteractive>
      <Box
        component="span"
        data-ellipsis=""
        sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0, maxWidth: '100%' }}
      >
        {text}
      </Box>
    </Tooltip>
  );
}

function CopyIcon() {
  return (
    <SvgIcon fontSize="inherit" aria-hidden="true">
      <path d="M16 1H4c-1.1 0-2 .9-2 2v14h2V3h12V1zm3 4H8c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h11c1.1 0 2-.9 2-2V7c0-1.1-.9-2-2-2zm0 16H8V7h11v14z" />
    </SvgIcon>
  );
}
function DoneIcon() {
  return (
    <SvgIcon fontSize="inherit" aria-hidden="true">
      <path d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2z" />
    </SvgIcon>
  );
}

/** The id in monospace with a copy button; "Copied" for a second after a click (SPEC's copied label). */
export function IdCell({ id, name }: { id: string; name: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
    } catch (e) {
      console.warn('Copying an id failed', e);
      notify(MESSAGES.copyId, 'error');
      return;
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_RESET_MS);
  };
  return (
    <Box component="span" data-id-cell="" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}>
      <Box component="code" sx={{ fontSize: '0.8rem', color: 'text.secondary', minWidth: 0 }}>
        {id}
      </Box>
      <Tooltip title={copied ? 'Copied' : 'Copy ID'}>
        <IconButton size="small" aria-label={copied ? `Copied ID of ${name}` : `Copy ID of ${name}`} onClick={() => void copy()}>
          {copied ? <DoneIcon /> : <CopyIcon />}
        </IconButton>
      </Tooltip>
    </Box>
  );
}

const CHIP_COLOUR: Record<StatusTone, 'success' | 'error' | 'warning' | 'info' | 'default'> = {
  success: 'success',
  error: 'error',
  warning: 'warning',
  progress: 'info',
  neutral: 'default',
};

/** A state in its own word on a chip coloured by core's statusTone (Failed never looks like Ready). */
export function StatusChip({ state }: { state: string }) {
  if (!state) return null;
  const tone = statusTone(state);
  return (
    <Chip size="small" label={state} color={CHIP_COLOUR[tone]} variant={tone === 'neutral' ? 'outlined' : 'filled'} data-tone={tone} />
  );
}

/** A small table's head: its columns' labels, those in `right` (numbers) set to the right. */
export function HeadRow({ cells, right = [] }: { cells: string[]; right?: string[] }) {
  return (
    <TableHead>
      <TableRow>
        {cells.map((c) => (
          <TableCell key={c} align={right.includes(c) ? 'right' : undefined}>
            {c}
          </TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}
