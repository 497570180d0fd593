// Imported by the setup file before Ink: Ink draws only the last frame, and ignores resizes, when it believes it runs in
// CI (is-in-ci reads CI once, when Ink is first imported), so the tests' Ink is loaded as in a person's terminal.
export const ciBefore = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
process.env.CI = 'false';
process.env.CONTINUOUS_INTEGRATION = 'false';

/** Puts CI's variables back as they were (once Ink is loaded). */
export function restoreCi(): void {
  for (const [k, v] of Object.entries(ciBefore)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}
