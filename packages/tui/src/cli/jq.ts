// --jq: filters a command's JSON output with jq itself (jq 1.8 built to WebAssembly, from npm's jq-wasm), as gh does:
// strings print raw, anything else as JSON, one result a line. Loaded only when --jq is given.

/** The value of --jq in these arguments (`--jq EXPR` or `--jq=EXPR`), before commander parses them. */
export function jqArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') return undefined;
    if (argv[i] === '--jq') return argv[i + 1];
    if (argv[i].startsWith('--jq=')) return argv[i].slice(5);
  }
  return undefined;
}

export class JqError extends Error {
  constructor(
    message: string,
    /** A filter that does not compile is a usage error; one that fails on the data is a failure. */
    readonly compile: boolean,
  ) {
    super(message);
  }
}

/** Runs the filter over a stream of JSON texts (what --json printed); resolves to the lines to print. */
export async function runJq(filter: string, json: string): Promise<string> {
  const { raw } = await import('jq-wasm/inline');
  try {
    const r = await raw(json.trim() === '' ? 'null' : json, filter, ['-r']);
    if (r.exitCode !== 0) throw new JqError(r.stderr.trim() || `jq exited ${r.exitCode}`, /compile error/.test(r.stderr));
    return r.stdout && !r.stdout.endsWith('\n') ? `${r.stdout}\n` : r.stdout;
  } catch (e) {
    if (e instanceof JqError) throw e;
    const message = e instanceof Error ? e.message : String(e);
    throw new JqError(message.trim(), /compile error/.test(message));
  }
}

/** Checks that the filter compiles, before the command does anything (so a typo never follows a change made). */
export async function checkJq(filter: string): Promise<void> {
  try {
    await runJq(filter, 'null');
  } catch (e) {
    if (e instanceof JqError && e.compile) throw e;
    // Filters that fail on null (e.g. `.[] | .name`) are fine: they will meet the real output.
  }
}
