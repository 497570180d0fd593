import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { TerminalIn } from './terminalIn';

/** A TTY's stdin: bytes arrive as 'data'. */
function tty() {
  return Object.assign(new EventEmitter(), { isTTY: true, setRawMode() {}, ref() {}, unref() {}, pause() {}, resume() {} });
}

describe('the terminal UI reads the terminal (TerminalIn)', () => {
  it('takes focus reports out of the keys and tells them to its listeners; other escape sequences pass', () => {
    const real = tty();
    const keys = new TerminalIn(real);
    const focus: boolean[] = [];
    keys.subscribe((f) => focus.push(f));
    keys.ref();
    real.emit('data', Buffer.from('ab\x1b[Ocd'));
    real.emit('data', Buffer.from('\x1b[I\x1b[A'));
    // A character split across two reads arrives whole.
    const e = Buffer.from('é');
    real.emit('data', e.subarray(0, 1));
    real.emit('data', e.subarray(1));
    let read = '';
    for (let chunk = keys.read(); chunk !== null; chunk = keys.read()) read += chunk;
    expect(read).toBe('abcd\x1b[Aé');
    expect(focus).toEqual([false, true]);
  });

  it('reads the terminal only while Ink asks for keys', () => {
    const real = tty();
    const keys = new TerminalIn(real);
    keys.ref();
    expect(real.listenerCount('data')).toBe(1);
    keys.unref();
    expect(real.listenerCount('data')).toBe(0);
  });
});
