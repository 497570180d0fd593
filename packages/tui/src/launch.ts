// Entry point of the `portal` executable (dist/portal.js): a command line that names one module of the CLI
// (`portal projects list`) runs in the build made for that module (dist/cmd/<module>/), which loads a handful of
// files; everything else (the UI, help, completion, --version, a word no module has) runs in the full build
// (dist/app/), which can run any command line. See build.mjs.
import { buildFor } from './cli/words';

const own = buildFor(process.argv.slice(2));
await import(new URL(own ? `./cmd/${own}/portal.js` : './app/portal.js', import.meta.url).href);
