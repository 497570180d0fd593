// Entry point of the `portal` executable: runs the CLI with the real process and sets the exit code.
import { run } from './cli/program';
import { nodeDeps } from './cli/node';

const code = await run(process.argv.slice(2), nodeDeps());
process.exitCode = code;
