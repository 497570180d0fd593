// The shape of every command (the GitHub CLI's pkg/cmd): one file per verb, `cli/<noun>/<verb>.ts`, exporting
// `options` (its words, arguments, flags and help, as data) and `run(opts, s)` (what it does with the parsed flags and
// the session: IO, store, API). The flags can be parsed into options without running anything (parseVerb), which is
// how the unit tests check them; the program registers each verb on commander with addVerb.
import { Command } from 'commander';
import { Session, type Deps } from './context';
import { examples } from './common';

export interface Flag {
  /** commander's flag text: '--name <name>', '-y, --yes', '--limit <n>'. */
  flags: string;
  description: string;
  /** A flag given more than once is a list of every value (-f a=1 -f b=2). */
  repeatable?: boolean;
  /** The value when the flag is not given. */
  default?: string;
}

/** `--wait`: follow what the verb made or shows until it is final; `until` says what and when ('the upload until ...'). */
export const waitFlag = (until: string): Flag => ({ flags: '--wait', description: `follow ${until}` });

/** `--wait` on a verb that makes or shows a request. */
export const REQUEST_WAIT_FLAG = waitFlag('the request until it is Finished or Failed');

/**
 * A secret read from standard input (`--password-stdin`, `--token-stdin`, `--otp-stdin`), as gh's `--with-token`: never
 * an argument, which `ps` and the shell's history would show. `what` is read, `more` follows in brackets.
 */
export const stdinFlag = (secret: 'password' | 'token' | 'otp', what: string, more?: string): Flag => ({
  flags: `--${secret}-stdin`,
  description: `read ${what} from standard input${more ? ` (${more})` : ''}`,
});

export interface VerbOptions {
  /** The verb and its arguments as commander reads them: 'list', 'rename <id>', 'push <files...>'. */
  usage: string;
  /** The one line of help beside the verb's name. */
  summary: string;
  flags?: readonly Flag[];
  /** Command lines shown under "Examples:" by --help (without the `$ `). */
  examples?: readonly string[];
  /** More help after the examples. */
  more?: string;
  hidden?: boolean;
}

/** One command: what it takes (options) and what it does (run); O is its arguments and flags once parsed. */
export interface Verb<O = Record<string, never>> {
  options: VerbOptions;
  run(opts: O, s: Session): Promise<void>;
}

/** A verb of any options (the type a noun's list of verbs holds). */
export type AnyVerb = Verb<any>;

const collect = (value: string, all: string[] = []) => [...all, value];

/** `<files...>` gives `files`, `[new-address]` gives `newAddress` (commander's own spelling of flags). */
const argumentNames = (usage: string): string[] =>
  [...usage.matchAll(/[<[]([^>\]]+?)(\.\.\.)?[>\]]/g)].map((m) => m[1].replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));

/** Declares the verb on its parent (its words, arguments, flags and help); the action is the caller's. */
function declare(parent: Command, options: VerbOptions): Command {
  const cmd = parent.command(options.usage, options.hidden ? { hidden: true } : {}).description(options.summary);
  for (const flag of options.flags ?? []) {
    if (flag.repeatable) cmd.option(flag.flags, flag.description, collect);
    else cmd.option(flag.flags, flag.description, flag.default);
  }
  const help = (options.examples?.length ? examples(...options.examples) : '') + (options.more ?? '');
  if (help) cmd.addHelpText('after', help);
  return cmd;
}

/** The parsed options of one call: the arguments by their names, then the flags. */
function optionsOf(options: VerbOptions, args: unknown[]): Record<string, unknown> {
  const cmd = args[args.length - 1] as Command;
  const names = argumentNames(options.usage);
  const positional = Object.fromEntries(names.map((name, i) => [name, args[i]]));
  return { ...positional, ...cmd.opts() };
}

/** Registers the verb under its noun (or the program): commander parses, the session is built, run is called. */
function addVerb(parent: Command, verb: AnyVerb, deps: Deps): Command {
  const cmd = declare(parent, verb.options);
  return cmd.action(async (...args: unknown[]) => {
    await verb.run(optionsOf(verb.options, args), Session.of(deps, args[args.length - 1] as Command));
  });
}

/** A noun's command with its verbs: `portal projects list`, `portal projects create`, ... */
function addNoun(program: Command, deps: Deps, noun: NounOptions, verbs: readonly AnyVerb[]): Command {
  const cmd = program.command(noun.name).description(noun.summary);
  if (noun.examples?.length) cmd.addHelpText('after', examples(...noun.examples));
  for (const verb of verbs) addVerb(cmd, verb, deps);
  return cmd;
}

/** A module's top-level commands, in the order `portal --help` lists them: verbs (`portal login`) and nouns with theirs. */
export function commands(...entries: ReadonlyArray<AnyVerb | readonly [NounOptions, readonly AnyVerb[]]>) {
  return {
    register(program: Command, deps: Deps): void {
      for (const entry of entries) {
        if (Array.isArray(entry)) addNoun(program, deps, entry[0], entry[1]);
        else addVerb(program, entry as AnyVerb, deps);
      }
    },
  };
}

export interface NounOptions {
  name: string;
  summary: string;
  examples?: readonly string[];
}

/**
 * The options a command line gives the verb, without running it (gh's tests of NewCmdX with a runF that keeps the
 * options): `parseVerb(list, ['--limit', '3'])`. A usage error (an unknown flag, a missing argument) throws.
 */
export function parseVerb<O>(verb: Verb<O>, argv: readonly string[]): O {
  const program = new Command('portal').exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  let parsed: O | undefined;
  declare(program, verb.options)
    .exitOverride()
    .action((...args: unknown[]) => {
      parsed = optionsOf(verb.options, args) as O;
    });
  program.parse([verb.options.usage.split(' ')[0], ...argv], { from: 'user' });
  if (parsed === undefined) throw new Error(`${verb.options.usage} did not parse`);
  return parsed;
}
