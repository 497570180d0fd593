// `portal completion bash|zsh|fish`: shell completion scripts built from the program itself, so every command and
// option (including ones added later) completes without a list kept by hand. Paths complete as files; ids and names
// of projects, uploads, requests, keys and the rest complete from the server (`portal __complete`, time-limited).
import type { Command, Option } from 'commander';
import type { Deps } from './context';
import { act, examples } from './common';
import { usageError } from './errors';

interface Node {
  /** Command words from the program, e.g. "projects rename". */
  path: string;
  subcommands: string[];
  options: string[];
  /** The noun whose ids its positional argument takes ("projects" for `projects rename <id>`), if any. */
  values?: string;
}

const flags = (opts: readonly Option[]) => opts.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f));

/** Nouns whose `list --json` gives the ids and names to complete, and the flags that take one of them. */
const VALUE_NOUNS = ['projects', 'uploads', 'runs', 'keys', 'models', 'integrations', 'accounts', 'webhooks'];
const VALUE_FLAGS: Record<string, string> = { '--project': 'projects', '--upload': 'uploads', '--client': 'accounts' };
/** `portal api <path>` completes the contract's paths (the API reference's), without asking the server. */
const API_PATHS = 'api';

/** Every command of the program with what can follow it: its subcommands, its options and the global ones. */
export function commandTree(program: Command): Node[] {
  const globals = flags(program.options);
  const out: Node[] = [];
  const walk = (cmd: Command, path: string) => {
    const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const noun = path.split(' ')[0];
    const takesId = path.includes(' ') && cmd.registeredArguments[0]?.name() === 'id' && VALUE_NOUNS.includes(noun);
    const takesPath = path === API_PATHS && cmd.registeredArguments[0]?.name() === 'path';
    out.push({
      path,
      subcommands: subs.map((c) => c.name()),
      options: [...new Set([...flags(cmd.options), ...globals, '--help'])],
      ...(takesId || takesPath ? { values: noun } : {}),
    });
    for (const sub of subs) walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  return out;
}

/** Every flag that takes a value, anywhere in the program (its value is not a command word). */
function valueFlags(program: Command): string[] {
  const found = new Set<string>();
  const walk = (cmd: Command) => {
    for (const o of cmd.options) if (o.required || o.optional) for (const f of [o.long, o.short]) if (f) found.add(f);
    cmd.commands.forEach(walk);
  };
  walk(program);
  return [...found].sort();
}

/** The global flags with values typed so far are passed on to `portal __complete`, so it asks the same server. */
const PASSED_ON = ['--api', '--client', '--project'];

function bash(program: Command): string {
  const tree = commandTree(program);
  const cases = tree.map((n) => `    "${n.path}") words="${[...n.subcommands, ...n.options].join(' ')}" ;;`).join('\n');
  const valueCases = tree
    .filter((n) => n.values)
    .map((n) => `    "${n.path}") noun=${n.values} ;;`)
    .join('\n');
  const flagCases = Object.entries(VALUE_FLAGS)
    .map(([flag, noun]) => `    ${flag}) noun=${noun} ;;`)
    .join('\n');
  return `# portal completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/portal
_portal() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" w words="" skip="" noun="" i
  local -a passed=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ -n "$skip" ]]; then
      case " ${PASSED_ON.join(' ')} " in *" $skip "*) passed+=("$skip" "$w") ;; esac
      skip=""
      continue
    fi
    case "$w" in
      ${valueFlags(program).join('|')}) skip="$w" ;;
      -*) ;;
      *) path="\${path:+$path }$w" ;;
    esac
  done
  prev="$skip"
  case "$prev" in
${flagCases}
    ?*) return 0 ;;
  esac
  if [[ -z "$noun" && "$cur" != -* ]]; then
    case "$path" in
${valueCases}
    esac
  fi
  if [[ -n "$noun" ]]; then
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$(portal "\${passed[@]}" __complete "$noun" 2>/dev/null | tr '\t' '\n')" -- "$cur"))
    COMPREPLY=($(printf '%q\n' "\${COMPREPLY[@]}"))
    return 0
  fi
  case "$path" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -o bashdefault -F _portal portal
`;
}

function zsh(program: Command): string {
  return `#compdef portal
# portal completion for zsh: source it from ~/.zshrc (it uses zsh's bash completion support)
autoload -U +X bashcompinit && bashcompinit
${bash(program)}`;
}

function fish(program: Command): string {
  const lines = ['# portal completion for fish: save as ~/.config/fish/completions/portal.fish', 'complete -c portal -f'];
  const words = (path: string) => (path ? path.split(' ') : []);
  for (const n of commandTree(program)) {
    const seen = words(n.path);
    // The command words typed so far are exactly this node's path.
    const cond = seen.length
      ? `__fish_seen_subcommand_from ${seen[seen.length - 1]}; and not __fish_seen_subcommand_from ${n.subcommands.join(' ') || '--'}`
      : '__fish_use_subcommand';
    for (const sub of n.subcommands) lines.push(`complete -c portal -n '${cond}' -a ${sub}`);
    for (const flag of n.options.filter((f) => f.startsWith('--'))) lines.push(`complete -c portal -n '${cond}' -l ${flag.slice(2)}`);
    if (n.values) lines.push(`complete -c portal -n '${cond}' -x -a '(portal __complete ${n.values} 2>/dev/null)'`);
    else if (n.subcommands.length === 0 && seen.length) lines.push(`complete -c portal -n '${cond}' -F`);
  }
  for (const [flag, noun] of Object.entries(VALUE_FLAGS))
    lines.push(`complete -c portal -l ${flag.slice(2)} -x -a '(portal __complete ${noun} 2>/dev/null)'`);
  return `${[...new Set(lines)].join('\n')}\n`;
}

const SHELLS = { bash, zsh, fish } as const;

/** How long a Tab press may wait for the server's ids and names before it gives up and offers none. */
export const COMPLETE_LIMIT_MS = 1500;

/** The paths `portal api` completes: every path of the contract's calls, one a line. */
export async function apiPaths(): Promise<string> {
  // The whole route table, not core's index: see fields.ts.
  const { CALLS } = await import('@portal/core/contract/table');
  return [...new Set(Object.values(CALLS).map((c) => c.path))].map((p) => `${p}\n`).join('');
}

/** `portal __complete NOUN`: the noun's ids and names, one `id<TAB>name` a line, from its own `list --json`. */
async function completeValues(deps: Deps, noun: string, globals: string[]): Promise<string> {
  if (noun === API_PATHS) return apiPaths();
  let printed = '';
  const quiet = { write: () => true, isTTY: false };
  const capture = { write: (text: string) => (printed += text), isTTY: false };
  const limitS = String(COMPLETE_LIMIT_MS / 1000);
  if (!deps.rerun) return '';
  const listed = deps.rerun([...globals, '--timeout', limitS, noun, 'list', '--json'], { ...deps, stdout: capture, stderr: quiet });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<number>((done) => (timer = setTimeout(() => done(-1), COMPLETE_LIMIT_MS)));
  const code = await Promise.race([listed, late]);
  clearTimeout(timer);
  if (code !== 0) return '';
  let rows: unknown;
  try {
    rows = JSON.parse(printed);
  } catch {
    return '';
  }
  if (!Array.isArray(rows)) return '';
  return rows
    .map((r: Record<string, unknown>) =>
      [r.stamp ?? r.clue, r.name].filter((v) => typeof v === 'string' && v).map((v) => String(v).replace(/[\t\n\r]+/g, ' ')),
    )
    .filter((pair) => pair.length > 0)
    .map((pair) => `${pair.join('\t')}\n`)
    .join('');
}

export function register(program: Command, deps: Deps): void {
  program
    .command('__complete <noun>', { hidden: true })
    .description('Ids and names for shell completion (time-limited)')
    .action(
      act(deps, async (s, noun: string) => {
        if (!VALUE_NOUNS.includes(noun) && noun !== API_PATHS)
          throw usageError(`__complete takes one of ${[...VALUE_NOUNS, API_PATHS].join(', ')}`);
        const globals = PASSED_ON.flatMap((flag) => {
          const value = s.opts[flag.slice(2) as 'api' | 'client' | 'project'];
          return value ? [flag, value] : [];
        });
        deps.stdout.write(await completeValues(deps, noun, globals));
      }),
    );

  program
    .command('completion <shell>')
    .description('Print a completion script for bash, zsh or fish')
    .addHelpText(
      'after',
      examples(
        'source <(portal completion bash)',
        'portal completion zsh > "${fpath[1]}/_portal"',
        'portal completion fish > ~/.config/fish/completions/portal.fish',
      ),
    )
    .action((shell: string) => {
      const make = SHELLS[shell as keyof typeof SHELLS];
      if (!make) throw usageError(`completion takes bash, zsh or fish, got "${shell}"`);
      deps.stdout.write(make(program));
    });
}
