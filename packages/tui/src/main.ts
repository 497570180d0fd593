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

const code = await run(process.argv.slice(2), nodeDeps());
process.exitCode = code;
