// The Chromium switches every browser run of the repository starts with (the browser tests and bench/web): headless,
// no sandbox in a container, and none of the browser's own traffic (updates, sync, QUIC) mixed into what is measured.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
