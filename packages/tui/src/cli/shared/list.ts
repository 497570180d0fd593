// The one shape of every `list` verb: load the rows, print them as a table (or JSON), with `--limit N` (gh's habit;
// the rows are cut where they are printed, core's Output) and SPEC's text for an empty list.
import type { Session } from '../context';
import type { Column } from '../output';
import type { Flag, Verb } from '../verb';

export const LIMIT_FLAG: Flag = { flags: '--limit <n>', description: 'print at most N rows' };

export interface ListSpec<T, O> {
  summary: string;
  examples: readonly string[];
  flags?: readonly Flag[];
  /** The rows, once the flags are checked. */
  rows(opts: O, s: Session): Promise<readonly T[]>;
  /** The table's columns (a function when one depends on what is stored, e.g. the default project). */
  columns: readonly Column<T>[] | ((s: Session, opts: O) => Promise<readonly Column<T>[]>);
  /** SPEC's text for no rows (printed on stderr; --json prints []). */
  empty: string;
}

export function listVerb<T, O = Record<string, never>>(spec: ListSpec<T, O>): Verb<O> {
  return {
    options: { usage: 'list', summary: spec.summary, flags: [...(spec.flags ?? []), LIMIT_FLAG], examples: spec.examples },
    async run(opts, s) {
      const rows = await spec.rows(opts, s);
      const columns = typeof spec.columns === 'function' ? await spec.columns(s, opts) : spec.columns;
      s.out.list(rows, columns, spec.empty);
    },
  };
}
