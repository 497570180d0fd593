// The `portal` program: global flags, every noun's commands, and the one top-level error handler.
import { Command, CommanderError } from 'commander';
import { MESSAGES, isApiError, printable } from '@portal/core';
import { Session, ExitSignal, flushStore, type Deps } from './context';
import { CliError, EXIT } from './errors';
import { examples } from './common';
import { checkJq, jqArgument, runJq, JqError } from './jq';
import { jsonFieldsArgument } from './fields';
import { MODULE_WORDS, modulesNeeded, wordsOf, type ModuleName } from './words';

interface Noun {
  register(program: Command, deps: Deps): void;
}

// How to load each module of words.ts's table (a screen noun with no module does not compile). Each is loaded only
// when the command line names one of its commands (see words.ts's modulesNeeded).
const LOAD: Record<ModuleName, () => Promise<Noun>> = {
  auth: () => import('./auth/index'),
  accounts: () => import('./accounts/index'),
  plan: () => import('./plan/index'),
  keys: () => import('./keys/index'),
  integrations: () => import('./integrations/index'),
  projects: () => import('./projects/index'),
  uploads: () => import('./uploads/index'),
  models: () => import('./models/index'),
  runs: () => import('./runs/index'),
  fit: () => import('./fit/index'),
  shrink: () => import('./shrink/index'),
  quotes: () => import('./quotes/index'),
  members: () => import('./members/index'),
  invites: () => import('./invites/index'),
  audit: () => import('./audit/index'),
  usage: () => import('./usage/index'),
  webhooks: () => import('./webhooks/index'),
  account: () => import('./account/index'),
  billing: () => import('./billing/index'),
  api: () => import('./api/index'),
  completion: () => import('./completion'),
  ui: () => import('./ui/index'),
};

/** The modules a command line needs, in `portal --help`'s order. */
export function modulesFor(argv: readonly string[]): ModuleName[] {
  const needed = modulesNeeded(argv);
  return needed === 'none' ? [] : needed === 'all' ? MODULE_WORDS.map(([name]) => name) : [needed];
}

/** Every module's commands (for the tests: each module registers exactly the commands it is listed with). */
export const moduleCommands = (): Array<[ModuleName, readonly string[], () => Promise<Noun>]> =>
  MODULE_WORDS.map(([name]) => [name, wordsOf(name), LOAD[name]]);

/** `portal help <command...>`: the same text as `portal <command...> --help`, for nested commands too. */
function registerHelp(program: Command): void {
  program.helpCommand(false);
  program
    .command('help [command...]')
    .description('Show help for a command, e.g. portal help uploads push')
    .action((words: string[]) => {
      let cmd: Command = program;
      for (const word of words) {
        const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!next) throw new CliError(`Unknown command "${words.join(' ')}": see portal --help`, EXIT.usage);
        cmd = next;
      }
      cmd.outputHelp();
    });
}

export async function buildProgram(deps: Deps, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('portal');
  program
    .description('The embedding-service portal in your terminal: an interactive UI, and subcommands for scripts.')
    .version(deps.version, '-V, --version', 'print the version')
    .option('--api <url>', 'API base (else PORTAL_API, else the stored one, else http://localhost:8080)')
    .option(
      '--json',
      'print JSON on standard output (the objects the API returns, with id and status beside its names); --json a,b,c prints only those fields',
    )
    .option('--client <id>', 'account to use (default: your only account, or the last one used)')
    .option('--project <id>', 'project to use (default: the one set by portal projects open)')
    .option('--jq <expression>', 'filter the JSON output with jq (implies --json; strings print without quotes)')
    .option('--timeout <seconds>', 'give up on a call with no answer after this long (else PORTAL_TIMEOUT, else 30; 0 waits forever)')
    .configureOutput({
      writeOut: (str) => void deps.stdout.write(str),
      writeErr: (str) => void deps.stderr.write(str),
    })
    .exitOverride()
    .configureHelp({ showGlobalOptions: true })
    .allowExcessArguments(true)
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      examples(
        'portal',
        'portal login',
        'portal projects list',
        'portal uploads push data.json --wait',
        'portal fit --upload <id> --inputs 3 --outputs 5 --target 1 --wait',
      ) +
        '\nEnvironment: PORTAL_API (API base), PORTAL_TOKEN (overrides the stored token), PORTAL_TIMEOUT (seconds), NO_COLOR.\nExit codes: 0 ok, 1 failure, 2 usage error, 4 not signed in, 130 interrupted (Ctrl+C).\n',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const s = Session.of(deps, cmd);
      if (cmd.args.length > 0) program.error(`error: unknown command '${cmd.args[0]}'`, { exitCode: EXIT.usage });
      if (!deps.stdin.isTTY || !deps.stdout.isTTY || !deps.startUi) {
        deps.stderr.write(program.helpInformation());
        deps.stderr.write('\nThe interactive UI needs a terminal; use the subcommands above in scripts.\n');
        s.exit(EXIT.usage);
      }
      s.exit(await deps.startUi!(s));
    });
  // Set on the run's own deps (not a copy): the run's store is shared by the deps object it was opened for.
  deps.rerun ??= run;
  const nouns = await Promise.all(modulesFor(argv).map((name) => LOAD[name]()));
  for (const noun of [...nouns, { register: registerHelp }]) noun.register(program, deps);
  addListLimits(program);
  return program;
}

/** `--limit N` on every list command (gh's habit); the rows are cut where they are printed (core's Output). */
function addListLimits(cmd: Command): void {
  for (const sub of cmd.commands) {
    if (sub.name() === 'list' && !sub.options.some((o) => o.long === '--limit')) sub.option('--limit <n>', 'print at most N rows');
    addListLimits(sub);
  }
}

/** Runs `portal` with these arguments (after the program name) and resolves to the exit code. */
export async function run(given: string[], realDeps: Deps): Promise<number> {
  let argv = given;
  let fields: string[] | undefined;
  if (given.some((a) => a === '--json' || a.startsWith('--json='))) {
    try {
      ({ argv, fields } = await jsonFieldsArgument(given));
    } catch (e) {
      realDeps.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      return EXIT.usage;
    }
  }
  // --jq: the command prints JSON into a buffer, and jq's results are printed once it is done.
  const jq = jqArgument(argv);
  let printed = '';
  const deps: Deps =
    jq === undefined
      ? realDeps
      : { ...realDeps, stdout: { write: (text: string) => (printed += text), isTTY: false, columns: realDeps.stdout.columns } };
  if (jq !== undefined) {
    try {
      await checkJq(jq);
    } catch (e) {
      realDeps.stderr.write(`--jq: ${e instanceof Error ? e.message : String(e)}\n`);
      return EXIT.usage;
    }
  }
  const code = await runCommand(argv, deps, fields);
  if (jq === undefined || !printed) return code;
  // Help and usage text is printed as it is; JSON goes through the filter.
  if (!/^\s*[[{"\d-]|^\s*(true|false|null)\s*$/.test(printed)) {
    realDeps.stdout.write(printed);
    return code;
  }
  try {
    // jq prints strings raw (gh's --jq): escaped like every other output.
    realDeps.stdout.write(printable(await runJq(jq, printed), { multiline: true }));
    return code;
  } catch (e) {
    realDeps.stderr.write(`--jq: ${e instanceof Error ? e.message : String(e)}\n`);
    return code !== EXIT.ok ? code : e instanceof JqError && e.compile ? EXIT.usage : EXIT.failure;
  }
}

async function runCommand(argv: string[], deps: Deps, fields?: string[]): Promise<number> {
  // `portal` alone on a terminal opens the UI: no need to build every command first.
  const uiOnly = argv.length === 0 && !!deps.startUi && !!deps.stdin.isTTY && !!deps.stdout.isTTY;
  const program = uiOnly ? null : await buildProgram(deps, argv);
  if (fields) program?.setOptionValue('jsonFields', fields);
  const fail = (message: string, code: number) => {
    deps.stderr.write(`${printable(message, { multiline: true })}\n`);
    return code;
  };
  let code: number;
  try {
    if (!program) code = await deps.startUi!(new Session(deps, {}));
    else {
      await program.parseAsync(argv, { from: 'user' });
      code = EXIT.ok;
    }
  } catch (e) {
    code = await failure(e);
  }
  // A refreshed or cleared token must reach the config file before the process ends; if it cannot, say so.
  const unsaved = await flushStore(deps);
  if (unsaved) return fail(unsaved, code === EXIT.ok ? EXIT.failure : code);
  return code;

  async function failure(e: unknown): Promise<number> {
    if (e instanceof ExitSignal) return e.code;
    // commander has already printed its message (or the help): only the code is left to choose.
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (e instanceof CliError) return fail(e.message, e.exitCode);
    if (isApiError(e)) {
      if (e.isAuth) return fail(`${e.display}: ${await new Session(deps, program?.opts() ?? {}).signInHint()}`, EXIT.auth);
      // SPEC's message for the call, then what happened (cannot reach, timed out, server error and its status).
      return fail(e.detail, EXIT.failure);
    }
    if ((e as { interrupted?: boolean })?.interrupted) return fail('Cancelled', EXIT.interrupted);
    if ((e as { cancelled?: boolean })?.cancelled) return fail('Cancelled', EXIT.usage);
    const why = e instanceof Error ? e.message : String(e);
    return fail(`${MESSAGES.globalFallback}${why ? ` ${why}` : ''}`, EXIT.failure);
  }
}
