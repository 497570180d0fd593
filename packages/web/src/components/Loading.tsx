// A quiet progress indicator while a page or its data loads.
import { Box, CircularProgress } from '@mui/material';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}
