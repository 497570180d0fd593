// Run before each unit test file of the terminal UI. The files share a process per worker (vitest's --no-isolate):
// a UI left drawn when its file ends would keep polling a server that has stopped, and slow every file after it.
import { afterAll } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { mountedTerminals } from './mounted';

afterAll(() => {
  cleanup();
  for (const terminal of mountedTerminals) terminal.unmount();
  mountedTerminals.clear();
});
