// The portal's theme, built in one place: teal accent, light grey page, dark paper, error red (contrast checked for axe).
// Two schemes: SPEC's light one (light grey page around dark paper) and a dark one for dark rooms (a near-black page
// around the same paper); everything on the paper, the accent included, is the same in both.
import { createTheme, type Theme } from '@mui/material/styles';
import { PALETTE } from '@portal/core';

export type ColorScheme = 'light' | 'dark';

/** What sits straight on the page background (outside the paper) in each scheme; the text is 4.5:1 or more on it. */
const PAGE: Record<ColorScheme, { background: string; text: string; link: string; brand: string }> = {
  light: { background: PALETTE.page, text: PALETTE.pageText, link: PALETTE.pageLink, brand: '#00574e' },
  dark: { background: '#0f1518', text: '#e0e6e9', link: PALETTE.accentSoft, brand: PALETTE.accent },
};

/** Page text and links follow the scheme through CSS variables, set by `pageVariables`. */
export const PAGE_TEXT = 'var(--portal-page-text)';
export const PAGE_LINK = 'var(--portal-page-link)';
/** The wordmark on the page: a dark teal on the light page, the accent on the dark one (both 4.5:1 or more). */
export const PAGE_BRAND = 'var(--portal-page-brand)';
/** A chart's plotting area: darker than the paper it sits on, in both schemes (the paper is dark in both). */
export const CHART_PANEL = 'rgba(0, 0, 0, 0.28)';
export const PAPER = PALETTE.paper;

/** The global styles that give PAGE_TEXT and PAGE_LINK their colours, and the browser's own controls their scheme. */
export const pageVariables = (scheme: ColorScheme) => ({
  ':root': {
    '--portal-page-text': PAGE[scheme].text,
    '--portal-page-link': PAGE[scheme].link,
    '--portal-page-brand': PAGE[scheme].brand,
    colorScheme: scheme,
  },
});

export function makeTheme(scheme: ColorScheme): Theme {
  return createTheme({
    palette: {
      // MUI's dark mode in both schemes: text on the dark paper is light; only the page around it changes.
      mode: 'dark',
      primary: { main: PALETTE.accent, contrastText: PALETTE.onAccent },
      secondary: { main: PALETTE.accentSoft, contrastText: PALETTE.onAccent },
      error: { main: PALETTE.error, contrastText: '#1a0000' },
      success: { main: PALETTE.success, contrastText: '#0b1f0c' },
      warning: { main: PALETTE.warning, contrastText: '#1f1300' },
      info: { main: PALETTE.info, contrastText: '#00161f' },
      background: { default: PAGE[scheme].background, paper: PAPER },
      text: { primary: PALETTE.text, secondary: PALETTE.textSecondary },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontSize: '1.6rem', fontWeight: 600 },
      h2: { fontSize: '1.25rem', fontWeight: 600 },
      h3: { fontSize: '1.05rem', fontWeight: 600 },
    },
    components: {
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none' } } },
      // A sticky header sits on the paper, not on the page colour MUI gives it (light text on light grey was unreadable).
      MuiTableCell: { styleOverrides: { head: { fontWeight: 600 }, stickyHeader: { backgroundColor: PAPER } } },
      MuiLink: { defaultProps: { color: 'primary' } },
      // A focus ring people can see on the dark paper and on either page background.
      MuiCssBaseline: {
        styleOverrides: { ':focus-visible': { outline: `2px solid ${PALETTE.accentSoft}`, outlineOffset: 2 } },
      },
    },
  });
}

/** SPEC's light theme. */
export const theme = makeTheme('light');
