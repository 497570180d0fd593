// Entry point of the `portal` executable: runs the CLI with the real process and sets the exit code.
import { run } from './cli/program';
import { nodeDeps } from './cli/node';

// A reader that stops early (`portal runs list | head`) closes the pipe: that is a normal end, not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

// `portal` alone on a terminal opens the UI: keys typed while it loads must neither show (the terminal echoes in its
// normal mode, so a typed-ahead password would be visible) nor be lost. Raw mode from the first moment keeps them
// unechoed in stdin's buffer, where Ink reads them once the first screen is drawn.
const opensUi = process.argv.length === 2 || (process.argv[2] === 'ui' && process.argv.length <= 4);
if (opensUi && process.stdin.isTTY && process.stdout.isTTY) process.stdin.setRawMode(true);

// No top-level await: the modules' builds are CommonJS (see codeCache.ts).
void run(process.argv.slice(2), nodeDeps()).then((code) => {
  process.exitCode = code;
});

/**
 * Every group of the contract's calls, loaded (its schemas built). For the code cache of a module's build
 * (codeCache.ts): a command builds a group's schemas only when it makes its first call, so the run that makes the cache
 * (`portal <module> --help`) loads them all as well, for their code to be in the cache. Imported here, not at the top:
 * the full build's commands (`portal --version`) do not load the contract's loader at start.
 */
export const loadContract = () =>
  import('@portal/core/contract/load').then(({ GROUP_MODULES }) => Promise.all(Object.values(GROUP_MODULES).map((load) => load())));
