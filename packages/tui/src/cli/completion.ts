// `portal completion bash|zsh|fish`: shell completion scripts built from the program itself, so every command and
// option (including ones added later) completes without a list kept by hand. Paths complete as files.
import type { Command, Option } from 'commander';
import type { Deps } from './context';
import { examples } from './common';
import { usageError } from './errors';

interface Node {
  /** Command words from the program, e.g. "projects rename". */
  path: string;
  subcommands: string[];
  options: string[];
}

const flags = (opts: readonly Option[]) => opts.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f));

/** Every command of the program with what can follow it: its subcommands, its options and the global ones. */
export function commandTree(program: Command): Node[] {
  const globals = flags(program.options);
  const out: Node[] = [];
  const walk = (cmd: Command, path: string) => {
    const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    out.push({ path, subcommands: subs.map((c) => c.name()), options: [...new Set([...flags(cmd.options), ...globals, '--help'])] });
    for (const sub of subs) walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  return out;
}

function bash(program: Command): string {
  const cases = commandTree(program)
    .map((n) => `    "${n.path}") words="${[...n.subcommands, ...n.options].join(' ')}" ;;`)
    .join('\n');
  return `# portal completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/portal
_portal() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w words=""
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$w" in -*) ;; *) path="\${path:+$path }$w" ;; esac
  done
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
    if (n.subcommands.length === 0 && seen.length) lines.push(`complete -c portal -n '${cond}' -F`);
  }
  return `${[...new Set(lines)].join('\n')}\n`;
}

const SHELLS = { bash, zsh, fish } as const;

export function register(program: Command, deps: Deps): void {
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
