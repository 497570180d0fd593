// A module's build of the CLI (dist/cmd/<module>/portal.cjs) runs with V8's code cache: V8 then reads compiled code
// instead of parsing and compiling the file's 180-250 KB (commander, zod, the contract, the module) on every command.
// Node 20 has no such cache for ES modules (Node 22's module.enableCompileCache), so these builds are CommonJS,
// compiled here with node:vm as Node compiles any CommonJS file.
//
// build.mjs makes each cache by running the build once (`portal <module> --help`) and saving what V8 compiled by the
// end of that run: the code run at start and the program's, which is most of a command's (a cache made right after
// compiling holds only the top level and saved nothing measurable). V8 checks that a cache was made by the same V8
// with the same flags and refuses it otherwise (another Node, other V8 options): the file is then compiled as usual,
// only slower. A cache is written once, beside the code it was made from, by the same build.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

/**
 * What a build calls instead of import() (build.mjs rewrites its few import() calls, of Node's modules and of libraries
 * in the full build's chunks): on Node 20 a script read from a code cache cannot run import() itself.
 */
export const IMPORT = '__portalImport';

/** Where a build's code cache is kept. */
export const cacheFileOf = (file: string) => `${file}.cache`;

/** The file's code compiled as CommonJS compiles it (the cache is made for, and checked against, exactly this text). */
export function compileBuild(file: string, cachedData?: Buffer): vm.Script {
  const source = readFileSync(file, 'utf8');
  return new vm.Script(`(function (exports, require, module, __filename, __dirname, ${IMPORT}) {${source}\n})`, {
    filename: file,
    cachedData,
  });
}

/**
 * A Node module, required, as its import() would give it (its exports by name, and itself as `default`). A build's
 * import() of Node's own modules is a require: an import() would start Node's ES module loader for it, about 1.5 ms of
 * a push (node:crypto), in a process that otherwise never needs it. Its exports are read from the module when used
 * (node:crypto's webcrypto, for one, loads only when read).
 */
const builtin = (mod: object): object => Object.create(mod, { default: { value: mod, enumerable: true } });

/**
 * Runs a CommonJS build with its code cache when there is one; `makeCache` (build.mjs) compiles it without one and
 * saves V8's compiled code once the run ends.
 */
export function runBuild(file: string, { makeCache = false } = {}): void {
  let cachedData: Buffer | undefined;
  if (!makeCache) {
    try {
      cachedData = readFileSync(cacheFileOf(file));
    } catch {
      // No cache (a build made without one): compiled as usual.
    }
  }
  const script = compileBuild(file, cachedData);
  const module: { exports: { loadContract?: () => Promise<unknown> } } = { exports: {} };
  const require = createRequire(file);
  const load = (specifier: string) =>
    specifier.startsWith('node:') ? Promise.resolve(builtin(require(specifier))) : import(new URL(specifier, pathToFileURL(file)).href);
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, require, module, file, dirname(file), load);
  if (makeCache) {
    // The build's run has started (its program's first steps are queued); the contract's groups load beside it, each
    // in one step, so they are loaded well before the help is printed. A cache without them is not written.
    let loaded = false;
    void module.exports.loadContract?.().then(() => (loaded = true));
    process.once('exit', () => {
      if (loaded) writeFileSync(cacheFileOf(file), script.createCachedData());
      else process.stderr.write(`${file}: the contract's groups were not loaded before the run ended; no code cache made\n`);
    });
  }
}
