// The terminal as Ink sees it: a resize redraws the whole frame at the new size at once (within 200 ms), not after
// seconds of laying out a frame "wider than any terminal".
import { EventEmitter } from 'node:events';
import { Box, Text, render, useStdout } from 'ink';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TerminalOut } from './terminal';

class FakeTty extends EventEmitter {
  columns = 80;
  rows = 24;
  isTTY = true;
  written = '';
  write(chunk: string | Uint8Array) {
    this.written += String(chunk);
    return true;
  }
}

function Sized() {
  const { stdout } = useStdout();
  const [size, setSize] = useState(`${stdout.columns}x${stdout.rows}`);
  useEffect(() => {
    const on = () => setSize(`${stdout.columns}x${stdout.rows}`);
    stdout.on('resize', on);
    return () => void stdout.off('resize', on);
  }, [stdout]);
  return (
    <Box flexDirection="column" width="100%">
      <Text>{`size ${size}`}</Text>
      <Box borderStyle="single" width="100%">
        <Text>{'x'.repeat(30)}</Text>
      </Box>
    </Box>
  );
}

describe('TerminalOut', () => {
  it('redraws the whole frame at the new size within 200 ms of a resize, the screen cleared first', { timeout: 30_000 }, async () => {
    const tty = new FakeTty();
    const terminal = new TerminalOut(tty as unknown as NodeJS.WriteStream);
    const app = render(<Sized />, { stdout: terminal as unknown as NodeJS.WriteStream, patchConsole: false, exitOnCtrlC: false });
    try {
      const waitFor = async (text: string, ms: number) => {
        const end = Date.now() + ms;
        while (!tty.written.includes(text)) {
          if (Date.now() > end) throw new Error(`not drawn within ${ms} ms: ${text}\n${JSON.stringify(tty.written.slice(-400))}`);
          await new Promise((r) => setTimeout(r, 2));
        }
      };
      // The first frame waits on the test file's start-up (imports, a loaded machine); the resizes below are what is timed.
      await waitFor('size 80x24', 15_000);
      for (const [columns, rows] of [
        [200, 50],
        [60, 20],
        [120, 40],
      ]) {
        tty.written = '';
        tty.columns = columns;
        tty.rows = rows;
        const started = Date.now();
        tty.emit('resize');
        await waitFor(`size ${columns}x${rows}`, 200);
        expect(Date.now() - started).toBeLessThan(200);
        // From a cleared screen, the border as wide as the terminal, no frame of another width drawn.
        expect(tty.written.startsWith('\x1b[2J\x1b[H')).toBe(true);
        expect(tty.written).toContain(`┌${'─'.repeat(columns - 2)}┐`);
        expect(tty.written).not.toMatch(new RegExp(`┌─{${columns - 1},}`));
      }
    } finally {
      app.unmount();
      terminal.dispose();
    }
  });
});
