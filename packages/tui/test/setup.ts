// Run before each unit test file of the terminal UI. The files share a process per worker (vitest's --no-isolate):
// a UI left drawn when its file ends would keep polling a server that has stopped, and slow every file after it.
import { restoreCi } from './outsideCi';
import 'ink';
import { afterAll } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { mountedTerminals } from './mounted';

// Ink is loaded once per worker, by the first file's setup: as in a person's terminal, whatever CI says (the files run
// in one process, so a file cannot load its own Ink in another mode).
restoreCi();

afterAll(() => {
  cleanup();
  for (const terminal of mountedTerminals) terminal.unmount();
  mountedTerminals.clear();
});
