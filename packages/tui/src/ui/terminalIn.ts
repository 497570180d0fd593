// The terminal's keys as Ink sees them, and its focus reports as the data cache sees them. With focus reporting on
// (xterm's mode 1004, which most terminals and tmux's focus-events follow), the terminal sends ESC [ I when its window
// or pane gains focus and ESC [ O when it loses it: those go to the focus listeners (the cache reads again what went
// stale meanwhile, as a browser tab does on focus) and never reach a screen as typed text.
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { FocusSignal } from '@portal/core/react/context';

/** Asks the terminal to report focus changes; FOCUS_REPORTS_OFF stops it (written on exit, whatever the exit). */
export const FOCUS_REPORTS_ON = '\x1b[?1004h';
export const FOCUS_REPORTS_OFF = '\x1b[?1004l';
const FOCUS_IN = '\x1b[I';
const FOCUS_OUT = '\x1b[O';

/** The parts of a TTY's stdin Ink uses: raw mode, ref and unref around reading. */
interface TtyIn {
  isTTY?: boolean;
  setRawMode(mode: boolean): unknown;
  ref(): unknown;
  unref(): unknown;
  pause(): unknown;
  resume(): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
}

export class TerminalIn extends Readable implements FocusSignal {
  private readonly focusListeners = new Set<(focused: boolean) => void>();
  private reading = false;
  // A character whose bytes arrive in two reads is decoded whole.
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly real: TtyIn) {
    super({ encoding: 'utf8' });
  }

  get isTTY(): boolean {
    return !!this.real.isTTY;
  }

  setRawMode(mode: boolean): this {
    this.real.setRawMode(mode);
    return this;
  }

  // Ink refs stdin while it reads keys and unrefs it after: only then is the terminal read (and the process kept).
  ref(): this {
    if (!this.reading) {
      this.reading = true;
      this.real.on('data', this.onData);
      this.real.resume();
    }
    this.real.ref();
    return this;
  }

  unref(): this {
    if (this.reading) {
      this.reading = false;
      this.real.off('data', this.onData);
      this.real.pause();
    }
    this.real.unref();
    return this;
  }

  subscribe(listener: (focused: boolean) => void): () => void {
    this.focusListeners.add(listener);
    return () => void this.focusListeners.delete(listener);
  }

  override _read(): void {
    // Keys are pushed as they arrive (onData).
  }

  private readonly onData = (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let keys = '';
    let from = 0;
    for (let at = text.indexOf('\x1b[', from); at >= 0; at = text.indexOf('\x1b[', from)) {
      const report = text.slice(at, at + FOCUS_IN.length);
      if (report !== FOCUS_IN && report !== FOCUS_OUT) {
        keys += text.slice(from, at + 2);
        from = at + 2;
        continue;
      }
      keys += text.slice(from, at);
      from = at + report.length;
      for (const l of this.focusListeners) l(report === FOCUS_IN);
    }
    keys += text.slice(from);
    if (keys) this.push(keys);
  };
}
