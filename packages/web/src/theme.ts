// The portal's theme, built in one place: teal accent, light grey page, dark paper, error red (contrast checked for axe).
import { createTheme } from '@mui/material/styles';

/** Page background behind the cards: light grey. Text placed straight on it uses PAGE_TEXT. */
export const PAGE_BACKGROUND = '#eceff1';
export const PAGE_TEXT = '#1c2429';
export const PAPER = '#263238';

export const theme = createTheme({
  palette: {
    // Dark mode so text on the dark paper is light; the page itself stays light grey.
    mode: 'dark',
    primary: { main: '#4db6ac', contrastText: '#001e1b' },
    secondary: { main: '#80cbc4', contrastText: '#001e1b' },
    error: { main: '#ff7961', contrastText: '#1a0000' },
    success: { main: '#81c784', contrastText: '#0b1f0c' },
    warning: { main: '#ffb74d', contrastText: '#1f1300' },
    info: { main: '#81d4fa', contrastText: '#00161f' },
    background: { default: PAGE_BACKGROUND, paper: PAPER },
    text: { primary: '#eceff1', secondary: '#b0bec5' },
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
