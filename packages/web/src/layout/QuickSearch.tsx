// Ctrl+K / Cmd+K: one box to jump to any screen, project, upload, request, model or key of the client (core's
// useJumpTargets and matchJumps); arrows move, Enter opens, Esc closes.
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Chip, Dialog, LinearProgress, List, ListItemButton, ListItemText, TextField, Typography } from '@mui/material';
import type { ScreenParams } from '@portal/core';
import { matchJumps, useJumpTargets } from '@portal/core/react';

export function QuickSearch({ open, onClose, params }: { open: boolean; onClose: () => void; params: ScreenParams }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const { targets, loading } = useJumpTargets(params, open);
  const found = useMemo(() => matchJumps(targets, query), [targets, query]);
  useEffect(() => {
    if (!open) setQuery('');
  }, [open]);
  useEffect(() => setActive(0), [query]);
  const go = (i: number) => {
    const t = found[i];
    if (!t) return;
    onClose();
    navigate(t.path);
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-label="Search"
      sx={{ '& .MuiDialog-container': { alignItems: 'flex-start' } }}
    >
      <Box sx={{ p: 2 }}>
        <TextField
          autoFocus
          fullWidth
          label="Search projects, uploads, requests, models, keys and pages"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((a) => Math.min(found.length - 1, a + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => Math.max(0, a - 1));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              go(active);
            }
          }}
          slotProps={{
            htmlInput: {
              role: 'combobox',
              'aria-expanded': true,
              'aria-controls': 'quick-search-results',
              'aria-activedescendant': found[active] ? `quick-search-${active}` : undefined,
              autoComplete: 'off',
            },
          }}
        />
        {loading && open && <LinearProgress aria-label="Loading" sx={{ mt: 1 }} />}
      </Box>
      <List id="quick-search-results" role="listbox" aria-label="Results" dense sx={{ maxHeight: 360, overflowY: 'auto', pt: 0 }}>
        {found.map((t, i) => (
          <ListItemButton
            key={`${t.kind}:${t.path}:${t.label}:${i}`}
            id={`quick-search-${i}`}
            role="option"
            aria-selected={i === active}
            selected={i === active}
            tabIndex={-1}
            onMouseEnter={() => setActive(i)}
            onClick={() => go(i)}
          >
            <Chip size="small" label={t.kind} variant="outlined" sx={{ mr: 1.5, minWidth: 84 }} />
            <ListItemText
              primary={t.label}
              secondary={t.detail}
              slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
              sx={{ minWidth: 0 }}
            />
          </ListItemButton>
        ))}
        {found.length === 0 && !loading && (
          <Typography role="status" sx={{ px: 2, py: 1.5, color: 'text.secondary' }}>
            Nothing matches “{query}”.
          </Typography>
        )}
      </List>
    </Dialog>
  );
}
