// Starts the interactive terminal UI (Ink) for a session; loaded on demand by `portal` on a TTY.
import type { Session } from '../cli/context';

export async function startUi(_session: Session): Promise<number> {
  return 0;
}
