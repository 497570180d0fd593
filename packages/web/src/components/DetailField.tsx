// One labelled value of a details page: label beside the value on wide screens, above it on phones.
import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' }, gap: { xs: 0, sm: 2 }, py: 0.75 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Box sx={{ overflowWrap: 'anywhere' }}>{children}</Box>
    </Box>
  );
}
