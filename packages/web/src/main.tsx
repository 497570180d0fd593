// Entry of the browser portal: theme, notification stack (top right), router.
// First: a deep link's files are requested before the rest of this file (React, MUI) is evaluated.
import './preload';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { GlobalStyles } from '@mui/material';
import { MaterialDesignContent, SnackbarProvider } from 'notistack';
import { styled } from '@mui/material/styles';
import { NOTIFY_MS } from '@portal/core';
import { PortalProvider } from '@portal/core/react/context';
import { api } from './lib/client';
import { notifier } from './lib/notify';
import { ColorSchemeProvider } from './lib/colorScheme';
import { App } from './App';
import { dismissButton } from './lib/notify';

// notistack's stock colours are too pale for white text: these keep a readable contrast (axe).
const Notice = styled(MaterialDesignContent)({
  '&.notistack-MuiContent-success': { backgroundColor: '#2e7d32', color: '#fff' },
  '&.notistack-MuiContent-error': { backgroundColor: '#c62828', color: '#fff' },
  '&.notistack-MuiContent-warning': { backgroundColor: '#8a4b00', color: '#fff' },
  '&.notistack-MuiContent-info': { backgroundColor: '#01579b', color: '#fff' },
  '&.notistack-MuiContent-default': { backgroundColor: '#1c262b', color: '#fff' },
});
const NOTICES = { default: Notice, success: Notice, error: Notice, warning: Notice, info: Notice };

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
  '.portal-notice-close:focus-visible, .portal-notice-action:focus-visible': { outline: '2px solid #fff' },
  '.portal-notice-action': {
    background: 'none',
    border: '1px solid currentColor',
    color: 'inherit',
    font: 'inherit',
    fontWeight: 700,
    padding: '2px 10px',
    marginRight: 4,
    cursor: 'pointer',
    borderRadius: 4,
  },
} as const;

const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
idle(() => void api.ready());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ColorSchemeProvider>
      <GlobalStyles styles={NOTICE_STYLES} />
      <SnackbarProvider
        // One report per event: at most three at once (a fourth dismisses the oldest), the same text shown once, the
        // newest on top of the stack, which stands in the bottom corner, away from the page's heading and its actions.
        maxSnack={3}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        autoHideDuration={NOTIFY_MS.default}
        preventDuplicate
        Components={NOTICES}
        action={dismissButton}
      >
        <PortalProvider api={api} notifier={notifier}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </PortalProvider>
      </SnackbarProvider>
    </ColorSchemeProvider>
  </StrictMode>,
);
