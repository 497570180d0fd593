// Small pieces shared by the command files: the action wrapper, examples in help, checks and confirmations.
import type { Command } from 'commander';
import { checkTitle, formatTime } from '@portal/core';
import { Session, type Deps } from './context';
import { CliError, usageError } from './errors';

/** Wraps an action: builds the session from the global flags; errors reach the one top-level handler. */
export function act<A extends unknown[]>(deps: Deps, fn: (s: Session, ...args: A) => Promise<void>) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    await fn(Session.of(deps, cmd), ...(args.slice(0, -1) as A));
  };
}

/** The "Examples" block shown by --help. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** A title checked by core's rule (checkTitle: TITLE_MAX characters at most after trimming), trimmed. */
export function title(value: string, mode: 'create' | 'rename'): string {
  const message = checkTitle(value, mode);
  if (message) throw new CliError(message);
  return value.trim();
}

/** A whole number flag; anything else is a usage error naming the flag. */
export function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw usageError(`${flag} must be a whole number, got "${value}"`);
  return Number(value);
}

/** Removal asks on a TTY unless --yes; without a terminal --yes is required (gh style). */
export async function confirmRemove(s: Session, what: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!s.interactive) throw usageError('--yes is required to remove without a terminal');
  const answer = await s.deps.prompter!.ask(`Remove ${what}? (y/N): `);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Cancelled', 2);
}

export const time = (epoch: number | null | undefined) => formatTime(epoch);
export const onOff = (active: number) => (active ? 'On' : 'Off');
