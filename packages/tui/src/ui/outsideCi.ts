// Imported first by a test that looks at every frame Ink draws: Ink draws only the last frame when it believes it runs
// in CI (is-in-ci reads CI when Ink is first imported), so this file's Ink is loaded as in a person's terminal.
export const ciBefore = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
process.env.CI = 'false';
process.env.CONTINUOUS_INTEGRATION = 'false';

/** Puts CI's variables back as they were (after the file's tests). */
export function restoreCi(): void {
  for (const [k, v] of Object.entries(ciBefore)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}
