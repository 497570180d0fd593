// Which of the program's modules a command line needs, decided from its words alone: the program (program.ts) loads
// that module and no other, and the launcher (launch.ts) picks the build made for it. Nothing here loads a library.
import type { CliNoun } from '@portal/core';

/** The modules beyond core's screen nouns: the account's own commands, billing, raw API calls, completion, the UI. */
export type ExtraModule = 'account' | 'billing' | 'api' | 'completion' | 'ui';
export type ModuleName = CliNoun | ExtraModule;

type ModuleWords = readonly [ModuleName, (readonly string[])?];

// Every module in the order `portal --help` lists them, with the command words it registers (its own name when
// there is no list).
const TABLE = [
  ['auth', ['login', 'logout', 'signup', 'whoami', 'auth', 'password']],
  ['accounts'],
  ['plan'],
  ['keys'],
  ['integrations'],
  ['projects'],
  ['uploads'],
  ['models'],
  ['runs'],
  ['fit', ['fit', 'generate']],
  ['shrink'],
  ['quotes'],
  ['members'],
  ['invites'],
  ['audit'],
  ['usage'],
  ['webhooks'],
  ['account'],
  ['billing'],
  ['api'],
  ['completion', ['__complete', 'completion']],
  ['ui'],
] as const satisfies readonly ModuleWords[];

/** A module missing from the table does not compile (a screen noun without a module does not either). */
type Unlisted = Exclude<ModuleName, (typeof TABLE)[number][0]>;

/** Every module with the command words it registers, in the order `portal --help` lists them. */
export const MODULE_WORDS: readonly ModuleWords[] = TABLE satisfies [Unlisted] extends [never] ? unknown : never;

/** The command words of one module. */
export const wordsOf = (name: ModuleName): readonly string[] => MODULE_WORDS.find(([n]) => n === name)?.[1] ?? [name];

/** The global flags that take a value in the next word (`--api URL`); `--json`'s fields are taken out before. */
const VALUE_FLAGS = new Set(['--api', '--client', '--project', '--jq', '--timeout']);

/** The command word of a command line: the first word that is neither a global flag nor its value. */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') return argv[i + 1];
    if (!word.startsWith('-')) return word;
    if (VALUE_FLAGS.has(word)) i++;
  }
  return undefined;
}

/**
 * What a command line needs: the one module that registers its command word; none for `--version`; every one
 * (`'all'`) for help, shell completion (built from the whole program), and a word no module has (commander then
 * names the nearest command).
 */
export function modulesNeeded(argv: readonly string[]): ModuleName | 'none' | 'all' {
  const word = commandWord(argv);
  if (word === undefined && argv.some((a) => a === '-V' || a === '--version') && !argv.some((a) => a === '-h' || a === '--help'))
    return 'none';
  const owner = MODULE_WORDS.find(([name, words]) => (words ?? [name]).includes(word ?? ''))?.[0];
  return owner && owner !== 'completion' ? owner : 'all';
}

/**
 * The modules that have a build of their own (dist/cmd/<name>): every one but the UI (Ink and React, in the full
 * build) and completion (which builds the whole program).
 */
export const OWN_BUILD: readonly ModuleName[] = MODULE_WORDS.map(([name]) => name).filter((n) => n !== 'ui' && n !== 'completion');

/** The build a command line runs in: its module's own, or the full one (null) for everything else. */
export function buildFor(argv: readonly string[]): ModuleName | null {
  const needed = modulesNeeded(argv);
  return needed !== 'none' && needed !== 'all' && OWN_BUILD.includes(needed) ? needed : null;
}
