// Renders a component the way the app does (theme, notification stack, router) for the component tests.
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ThemeProvider } from '@mui/material';
import { SnackbarProvider } from 'notistack';
import { theme } from './theme';

export function renderApp(
  ui: ReactNode,
  { path = '/', at = '/', extra }: { path?: string; at?: string; extra?: Record<string, ReactNode> } = {},
) {
  return render(
    <ThemeProvider theme={theme}>
      <SnackbarProvider>
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route path={path} element={ui} />
            {Object.entries(extra ?? {}).map(([p, el]) => (
              <Route key={p} path={p} element={el} />
            ))}
          </Routes>
        </MemoryRouter>
      </SnackbarProvider>
    </ThemeProvider>,
  );
}
