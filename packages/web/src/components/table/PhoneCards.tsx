// A list on a phone: each row a card (its name, then label and value for every field with something in it, then its
// actions), so nothing hides off to the side of a narrow screen.
import type { ReactNode } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import { cellContent, isBlank, type Column } from './columns';

export function PhoneCards<T>(props: {
  label: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  checkbox?: (key: string) => ReactNode;
  actions?: (row: T) => ReactNode;
  /** Shown when the filter leaves nothing. */
  noMatch: string | null;
}) {
  const { label, rows, columns, rowKey, checkbox, actions, noMatch } = props;
  const [head, ...rest] = columns;
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
      {rows.map((r) => (
        <Box component="li" key={rowKey(r)} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, minWidth: 0 }}>
          {head && (
            <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, mb: 0.5, minWidth: 0 }}>
              {checkbox?.(rowKey(r))}
              <Typography component="div" sx={{ fontWeight: 600, minWidth: 0, flex: 1 }}>
                {cellContent(head, r, true)}
              </Typography>
            </Stack>
          )}
          <Box
            component="dl"
            sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(84px, auto) minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.5 }}
          >
            {rest
              .filter((c) => !isBlank(c.value?.(r)) || (!c.value && c.render))
              .map((c) => (
                <Box key={c.id} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {c.label}
                  </Typography>
                  <Typography
                    component="dd"
                    variant="body2"
                    sx={{
                      m: 0,
                      minWidth: 0,
                      overflowWrap: 'anywhere',
                      // On a narrow card a long id wraps rather than pushing the card wider than the screen.
                      '& [data-id-cell]': { whiteSpace: 'normal', maxWidth: '100%' },
                      '& [data-id-cell] code': { overflowWrap: 'anywhere' },
                    }}
                  >
                    {cellContent(c, r, !!c.truncate)}
                  </Typography>
                </Box>
              ))}
          </Box>
          {actions && <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>{actions(r)}</Box>}
        </Box>
      ))}
      {noMatch && (
        <Typography component="li" sx={{ textAlign: 'center', color: 'text.secondary', py: 2 }}>
          {noMatch}
        </Typography>
      )}
    </Box>
  );
}
