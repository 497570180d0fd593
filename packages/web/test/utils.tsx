// Renders a component the way the app does (theme, notification stack, core's provider, router) for the component
// tests; their client points nowhere (the component tests make no call).
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ThemeProvider } from '@mui/material';
import { SnackbarProvider } from 'notistack';
import { ApiClient, memoryTokenStore } from '@portal/core';
import { callTable } from '@portal/core/contract/table';
import { PortalProvider } from '@portal/core/react';
import { notifier } from '../src/lib/notify';
import { theme } from '../src/theme';

const api = new ApiClient({ calls: callTable, baseUrl: 'http://127.0.0.1:9', tokens: memoryTokenStore() });

export function renderApp(
  ui: ReactNode,
  { path = '/', at = '/', extra }: { path?: string; at?: string; extra?: Record<string, ReactNode> } = {},
) {
  return render(
    <ThemeProvider theme={theme}>
      <SnackbarProvider>
        <PortalProvider api={api} notifier={notifier}>
          <MemoryRouter initialEntries={[at]}>
            <Routes>
              <Route path={path} element={ui} />
              {Object.entries(extra ?? {}).map(([p, el]) => (
                <Route key={p} path={p} element={el} />
              ))}
            </Routes>
          </MemoryRouter>
        </PortalProvider>
      </SnackbarProvider>
    </ThemeProvider>,
  );
}
