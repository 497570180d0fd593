// The portal's colours (SPEC: teal accent, light grey page background, dark paper, error red), shared by the web
// theme and the pages the server renders itself (the payment page), so both look like one product.
export const PALETTE = {
  /** Page background behind the cards: light grey. */
  page: '#eceff1',
  /** Text placed straight on the page background. */
  pageText: '#1c2429',
  /** Links placed straight on the page background (teal, 4.5:1 on it). */
  pageLink: '#00574e',
  /** Cards and tables: dark paper. */
  paper: '#263238',
  /** The top bar and sidebar, a shade darker than the paper. */
  chrome: '#1c262b',
  /** Text on the paper. */
  text: '#eceff1',
  textSecondary: '#b0bec5',
  divider: '#3d4b52',
  /** The accent, and the text on it. */
  accent: '#4db6ac',
  onAccent: '#001e1b',
  accentSoft: '#80cbc4',
  error: '#ff7961',
  success: '#81c784',
  warning: '#ffb74d',
  info: '#81d4fa',
} as const;
