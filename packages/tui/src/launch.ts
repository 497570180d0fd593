// Entry point of the `portal` executable (dist/portal.js): a command line that names one module of the CLI
// (`portal projects list`) runs in the build made for that module (dist/cmd/<module>/portal.cjs, with its code cache:
// see codeCache.ts); everything else (the UI, help, completion, --version, a word no module has) runs in the full
// build (dist/app/), which can run any command line. See build.mjs.
import { fileURLToPath } from 'node:url';
import { runBuild } from './codeCache';
import { buildFor } from './cli/words';

const own = buildFor(process.argv.slice(2));
if (own) runBuild(fileURLToPath(new URL(`./cmd/${own}/portal.cjs`, import.meta.url)));
else await import(new URL('./app/portal.js', import.meta.url).href);
