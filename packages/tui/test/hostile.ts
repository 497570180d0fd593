// Text an attacker stores (in a file's column names and cells, a name written around the API, a server's message) to
// drive the terminal it is printed on: every CLI command that prints data is fed these, and must print them escaped.

/** One of each: a CSI that clears the screen, an OSC window title, a hidden OSC 8 link, a C1 CSI, bidi overrides, CR/LF. */
export const HOSTILE_TEXTS = [
  'plain',
  'Acme\x1b]0;owned\x07\x1b[2J Ltd',
  '\x1b]8;;https://evil.example/\x07click me\x1b]8;;\x07',
  'invoice\u202egpj.exe',
  'eve\x1b[31m@example.com',
  'line\r\nfake: row',
  'c1\x9b2J\u2066isolate\u2069',
] as const;

/** What must never arrive raw: C0 but tab and LF, DEL, C1 and the bidi controls. */
// eslint-disable-next-line no-control-regex
export const TERMINAL_RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
