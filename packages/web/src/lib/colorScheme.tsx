// Light or dark: the system's choice (prefers-color-scheme) until the user picks one with the toggle, which is remembered.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { CssBaseline, GlobalStyles, ThemeProvider, useMediaQuery } from '@mui/material';
import { makeTheme, pageVariables, type ColorScheme } from '../theme';

const KEY = 'portal.colorScheme';

function stored(): ColorScheme | null {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null; // storage refused (private mode): follow the system
  }
}

interface SchemeState {
  scheme: ColorScheme;
  toggle(): void;
}

const SchemeContext = createContext<SchemeState>({ scheme: 'light', toggle: () => undefined });

export const useColorScheme = () => useContext(SchemeContext);

export function ColorSchemeProvider({ children }: { children: ReactNode }) {
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const [chosen, setChosen] = useState<ColorScheme | null>(stored);
  const scheme: ColorScheme = chosen ?? (systemDark ? 'dark' : 'light');
  const theme = useMemo(() => makeTheme(scheme), [scheme]);
  const state = useMemo(
    () => ({
      scheme,
      toggle: () => {
        const next: ColorScheme = scheme === 'dark' ? 'light' : 'dark';
        setChosen(next);
        try {
          window.localStorage.setItem(KEY, next);
        } catch (e) {
          console.warn('The colour scheme could not be remembered', e);
        }
      },
    }),
    [scheme],
  );
  return (
    <SchemeContext.Provider value={state}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <GlobalStyles styles={pageVariables(scheme)} />
        {children}
      </ThemeProvider>
    </SchemeContext.Provider>
  );
}
