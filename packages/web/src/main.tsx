// Entry of the browser portal: theme, notification stack (top right), router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { CssBaseline, GlobalStyles, ThemeProvider } from '@mui/material';
import { closeSnackbar, MaterialDesignContent, SnackbarProvider, type SnackbarKey } from 'notistack';
import { styled } from '@mui/material/styles';
import { NOTIFY_MS } from '@portal/core';
import { lazyApiClient } from '@portal/core/client/lazy';
import { PortalProvider } from '@portal/core/react/context';
import { tokenStore } from './lib/session';
import { notifier } from './lib/notify';
import { theme } from './theme';
import { App, preloadFirstPage } from './App';

preloadFirstPage(window.location.pathname);

// notistack's stock colours are too pale for white text: these keep a readable contrast (axe).
const Notice = styled(MaterialDesignContent)({
  '&.notistack-MuiContent-success': { backgroundColor: '#2e7d32', color: '#fff' },
  '&.notistack-MuiContent-error': { backgroundColor: '#c62828', color: '#fff' },
  '&.notistack-MuiContent-warning': { backgroundColor: '#8a4b00', color: '#fff' },
  '&.notistack-MuiContent-info': { backgroundColor: '#01579b', color: '#fff' },
  '&.notistack-MuiContent-default': { backgroundColor: '#1c262b', color: '#fff' },
});
const NOTICES = { default: Notice, success: Notice, error: Notice, warning: Notice, info: Notice };

// A notice can be dismissed before its time is up (the default one stays 20 seconds).
const dismiss = (key: SnackbarKey) => (
  <button type="button" className="portal-notice-close" aria-label="Dismiss notification" onClick={() => closeSnackbar(key)}>
    ×
  </button>
);

// The dismiss button of a notice: light on the notice's dark colours.
const NOTICE_STYLES = {
  '.portal-notice-close': {
    background: 'none',
    border: 0,
    color: 'inherit',
    font: 'inherit',
    fontSize: '1.4rem',
    lineHeight: 1,
    padding: '4px 8px',
    cursor: 'pointer',
    borderRadius: 4,
  },
  '.portal-notice-close:focus-visible': { outline: '2px solid #fff' },
} as const;

// The one API client of the browser, for every page: its schemas load once the first page is interactive (or on the
// first call), so the login page draws without them.
const api = lazyApiClient({ baseUrl: '', tokens: tokenStore }, () => import('./lib/api').then((m) => m.api));
const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
idle(() => void api.ready());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <GlobalStyles styles={NOTICE_STYLES} />
      <SnackbarProvider
        maxSnack={4}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        autoHideDuration={NOTIFY_MS.default}
        preventDuplicate
        Components={NOTICES}
        action={dismiss}
      >
        <PortalProvider api={api} notifier={notifier}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </PortalProvider>
      </SnackbarProvider>
    </ThemeProvider>
  </StrictMode>,
);
