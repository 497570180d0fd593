// Entry point of the `portal` executable (dist/portal.js): a command line that names one module of the CLI
// (`portal projects list`) runs in the build made for that module (dist/cmd/<module>/portal.cjs, with its code cache:
// see codeCache.ts); everything else (the UI, help, completion, --version, a word no module has) runs in the full
// build (dist/app/), which can run any command line. See build.mjs.
//
// The launcher itself is bundled as CommonJS (build.mjs gives dist/ a package.json saying so, and dist/app/ one saying
// `module`): Node starts a CommonJS entry without its ES module loader's asynchronous steps, about 5 ms of every
// command, where the module builds it runs are CommonJS too. Hence `__dirname`, which esbuild keeps as it is.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runBuild } from './codeCache';
import { buildFor } from './cli/words';

const own = buildFor(process.argv.slice(2));
if (own) runBuild(join(__dirname, 'cmd', own, 'portal.cjs'));
else void import(pathToFileURL(join(__dirname, 'app', 'portal.js')).href);
