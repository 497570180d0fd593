// One screen's frame: a heading, its actions, and its content on dark paper; sets the document title.
import { useEffect, useRef, type ReactNode } from 'react';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { screenDrawn } from '../lib/firstPage';

export function Page({
  title,
  actions,
  children,
  maxWidth,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  maxWidth?: number;
}) {
  useEffect(() => {
    document.title = `${title} · Portal`;
  }, [title]);
  // A page reached inside the portal (after a sign-in too) moves focus to its title; the first screen of a visit does not.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (screenDrawn()) heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <Paper component="section" aria-labelledby="page-title" sx={{ p: { xs: 2, sm: 3 }, maxWidth, width: '100%' }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mb: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="h1" id="page-title" ref={heading} tabIndex={-1} sx={{ overflowWrap: 'anywhere', outline: 'none' }}>
          {title}
        </Typography>
        {actions && (
          <Box data-page-actions="" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {actions}
          </Box>
        )}
      </Stack>
      {children}
    </Paper>
  );
}

/** A titled block inside a page. */
export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3 }}>
      <Stack direction="row" sx={{ mb: 1, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Typography variant="h2">{title}</Typography>
        {actions}
      </Stack>
      {children}
    </Box>
  );
}
