// The built portal writing into a pipe whose reader stops early (`portal --help | head -1`).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PORTAL } from './harness';

describe('portal into a closed pipe', () => {
  it('ends quietly with exit 0 when the reader stops after the first line', async () => {
    const child = spawn(process.execPath, [PORTAL, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // Read one chunk, then close our end as `head -1` would.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });
});
