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
