// Entry of the browser portal: theme, notification stack (top right), router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { CssBaseline, GlobalStyles, ThemeProvider } from '@mui/material';
import { MaterialDesignContent, SnackbarProvider } from 'notistack';
import { styled } from '@mui/material/styles';
import { NOTIFY_MS } from '@portal/core';
import { theme } from './theme';
import { App } from './App';

// notistack's stock colours are too pale for white text: these keep a readable contrast (axe).
const Notice = styled(MaterialDesignContent)({
  '&.notistack-MuiContent-success': { backgroundColor: '#2e7d32', color: '#fff' },
  '&.notistack-MuiContent-error': { backgroundColor: '#c62828', color: '#fff' },
  '&.notistack-MuiContent-warning': { backgroundColor: '#8a4b00', color: '#fff' },
  '&.notistack-MuiContent-info': { backgroundColor: '#01579b', color: '#fff' },
  '&.notistack-MuiContent-default': { backgroundColor: '#1c262b', color: '#fff' },
});
const NOTICES = { default: Notice, success: Notice, error: Notice, warning: Notice, info: Notice };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {/* The stack sits just under the top bar, so it never hides Upgrade or Contact Support. */}
      <GlobalStyles styles={{ '.portal-notices': { top: '64px !important' }, '@media (min-width: 600px)': { '.portal-notices': { top: '72px !important' } } }} />
      <SnackbarProvider maxSnack={4} classes={{ containerAnchorOriginTopRight: 'portal-notices' }} anchorOrigin={{ vertical: 'top', horizontal: 'right' }} autoHideDuration={NOTIFY_MS.default} preventDuplicate Components={NOTICES}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </SnackbarProvider>
    </ThemeProvider>
  </StrictMode>,
);
