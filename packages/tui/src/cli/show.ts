// The one shape of every "show it, or follow it to its end with --wait" command: runs show, fit, generate, rerun,
// quotes show and shrink.
import type { Session } from './context';

/** How to load, follow and print one kind of thing, and whether it ended well. */
export interface Shown<T> {
  load(s: Session, id: string): Promise<T>;
  follow(s: Session, id: string): Promise<T>;
  print(s: Session, value: T): Promise<void>;
  finished(value: T): boolean;
}

/** Shows the thing once, or with --wait follows it to a final state, prints it, and exits 1 unless it Finished. */
export async function showCommand<T>(s: Session, kind: Shown<T>, id: string, wait: boolean | undefined): Promise<void> {
  const value = wait ? await kind.follow(s, id) : await kind.load(s, id);
  await kind.print(s, value);
  if (wait && !kind.finished(value)) s.exit(1);
}
