// What the account verbs share.
import type { Session } from '../context';
import { CliError } from '../errors';
import { readAll } from '../prompt';

/** The lines of standard input, read once (several secrets may come from it, one a line). */
export function stdinLines(s: Session): (i: number) => Promise<string> {
  let lines: Promise<string[]> | undefined;
  return async (i) => (await (lines ??= readAll(s.deps.stdin).then((t) => t.split(/\r?\n/))))[i] ?? '';
}

/** A rule's verdict as the command's failure. */
export const must = (problem: string | null) => {
  if (problem) throw new CliError(problem);
};
