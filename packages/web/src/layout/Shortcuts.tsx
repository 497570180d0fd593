// Keyboard shortcuts of the signed-in portal and the `?` sheet that lists them: Ctrl+K / Cmd+K search, `g` then a
// letter to go to a screen, `n` for the page's first action (create), `/` to the list's filter.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Dialog, DialogContent, DialogTitle, Link, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { API_DOCS_PATH, screenPath, type ScreenId, type ScreenParams } from '@portal/core';
import { QuickSearch } from './QuickSearch';

/** `g` then this key goes to the screen (where the user is on a client or project that has it). */
const GO: Array<{ key: string; screen: ScreenId }> = [
  { key: 'a', screen: 'account' },
  { key: 'p', screen: 'projects' },
  { key: 'k', screen: 'apikeys' },
  { key: 'i', screen: 'integrations' },
  { key: 's', screen: 'usage' },
  { key: 'l', screen: 'audit' },
  { key: 'u', screen: 'uploads' },
  { key: 'r', screen: 'runs' },
  { key: 'm', screen: 'models' },
];
const GO_NAMES: Record<string, string> = {
  a: 'My Account',
  p: 'Projects',
  k: 'API keys',
  i: 'Integrations',
  s: 'Usage',
  l: 'Audit log',
  u: 'Uploads',
  r: 'Requests',
  m: 'Models',
};

export const SHORTCUTS: Array<{ keys: string; what: string }> = [
  { keys: 'Ctrl+K or ⌘K', what: 'Search projects, uploads, requests, models, keys and pages' },
  { keys: '?', what: 'Show these shortcuts' },
  { keys: '/', what: 'Filter the list' },
  { keys: 'n', what: "The page's first action (create)" },
  ...GO.map((g) => ({ keys: `g ${g.key}`, what: `Go to ${GO_NAMES[g.key]}` })),
  { keys: 'Esc', what: 'Close a dialog' },
];

/** Typing into a field is never a shortcut. */
const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || !!t.closest('[role="dialog"]'));

/** `searching` is the quick search's open state, which the top bar's Search button also sets. */
export function Shortcuts({
  params,
  searching,
  setSearching,
}: {
  params: ScreenParams;
  searching: boolean;
  setSearching: (open: boolean) => void;
}) {
  const navigate = useNavigate();
  const [sheet, setSheet] = useState(false);
  const pendingG = useRef(0);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setSearching(true);
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (Date.now() - pendingG.current < 1500) {
        pendingG.current = 0;
        const go = GO.find((g) => g.key === e.key);
        if (!go) return;
        try {
          navigate(screenPath(go.screen, params));
          e.preventDefault();
        } catch (err) {
          console.info('That screen needs a client or project first', err);
        }
        return;
      }
      if (e.key === 'g') pendingG.current = Date.now();
      else if (e.key === '?') {
        e.preventDefault();
        setSheet(true);
      } else if (e.key === '/') {
        const box = document.querySelector<HTMLInputElement>('main input[type="search"]');
        if (box) {
          e.preventDefault();
          box.focus();
        }
      } else if (e.key === 'n') {
        const first = document.querySelector<HTMLElement>('[data-page-actions] button, [data-page-actions] a');
        if (first) {
          e.preventDefault();
          first.click();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, params, setSearching]);
  return (
    <>
      <QuickSearch open={searching} onClose={() => setSearching(false)} params={params} />
      <Dialog open={sheet} onClose={() => setSheet(false)} aria-labelledby="shortcuts-title">
        <DialogTitle id="shortcuts-title">Keyboard shortcuts</DialogTitle>
        <DialogContent>
          <Table size="small" aria-labelledby="shortcuts-title">
            <TableBody>
              {SHORTCUTS.map((s) => (
                <TableRow key={s.keys}>
                  <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                    <kbd>{s.keys}</kbd>
                  </TableCell>
                  <TableCell>{s.what}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Typography variant="body2" sx={{ mt: 2 }}>
            Integrating with the service? The{' '}
            <Link href={API_DOCS_PATH} target="_blank" rel="noopener">
              API reference
            </Link>{' '}
            lists every call, its parameters and its answers.
          </Typography>
        </DialogContent>
      </Dialog>
    </>
  );
}
