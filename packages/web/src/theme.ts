// The portal's theme, built in one place: teal accent, light grey page, dark paper, error red (contrast checked for axe).
import { createTheme } from '@mui/material/styles';
import { PALETTE } from '@portal/core';

/** Page background behind the cards: light grey. Text placed straight on it uses PAGE_TEXT. */
export const PAGE_BACKGROUND = PALETTE.page;
export const PAGE_TEXT = PALETTE.pageText;
export const PAPER = PALETTE.paper;

export const theme = createTheme({
  palette: {
    // Dark mode so text on the dark paper is light; the page itself stays light grey.
    mode: 'dark',
    primary: { main: PALETTE.accent, contrastText: PALETTE.onAccent },
    secondary: { main: PALETTE.accentSoft, contrastText: PALETTE.onAccent },
    error: { main: PALETTE.error, contrastText: '#1a0000' },
    success: { main: PALETTE.success, contrastText: '#0b1f0c' },
    warning: { main: PALETTE.warning, contrastText: '#1f1300' },
    info: { main: PALETTE.info, contrastText: '#00161f' },
    background: { default: PAGE_BACKGROUND, paper: PAPER },
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
    MuiTableCell: { styleOverrides: { head: { fontWeight: 600 } } },
    MuiLink: { defaultProps: { color: 'primary' } },
  },
});
