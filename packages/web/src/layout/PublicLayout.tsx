// The frame of the four public screens: a centred card on the light grey page.
import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { Box, Typography } from '@mui/material';
import { Loading } from '../components/Loading';
import { PAGE_BRAND, PAGE_TEXT } from '../theme';
import { screenDrawn } from '../lib/firstPage';

export function PublicLayout() {
  // A public screen counts as the visit's first: the page a sign-in leads to was reached inside the portal, even when
  // a refused token sent the visitor here before any signed-in page had drawn.
  useEffect(() => {
    screenDrawn();
  }, []);
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        bgcolor: 'background.default',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        px: 1.5,
        py: { xs: 3, sm: 6 },
      }}
    >
      <Typography component="p" sx={{ color: PAGE_BRAND, fontWeight: 700, fontSize: '1.5rem', mb: 2 }}>
        Portal
      </Typography>
      <Box sx={{ width: '100%', maxWidth: 440 }}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Box>
      <Typography variant="body2" sx={{ color: PAGE_TEXT, mt: 3 }}>
        Data-embedding service
      </Typography>
    </Box>
  );
}
