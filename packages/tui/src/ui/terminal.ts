// The terminal as Ink sees it: the real stdout, except that a resize in either direction redraws the whole frame.
// A terminal reflows the old frame's long lines when it narrows or widens, so Ink's "erase the lines I drew last
// time" misses some of them and they stay on screen; Ink only starts over from a clear frame when the width shrinks.
import { EventEmitter } from 'node:events';

const CLEAR_SCREEN = '\x1b[2J\x1b[H';
/** A width Ink takes as "wider than any terminal", so the real width that follows reads as a shrink. */
const WIDER = 100_000;

export class TerminalOut extends EventEmitter {
  private muted = false;
  private wide = false;

  constructor(private readonly real: NodeJS.WriteStream) {
    super();
    real.on('resize', this.redraw);
  }

  get columns(): number {
    return this.wide ? WIDER : this.real.columns;
  }
  get rows(): number {
    return this.real.rows;
  }
  get isTTY(): boolean {
    return !!this.real.isTTY;
  }

  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    if (this.muted) return true;
    return (this.real.write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  }

  /** Clears the screen, then lets Ink see a shrink (its full redraw from a clear frame) at the real size. */
  private readonly redraw = () => {
    this.real.write(CLEAR_SCREEN);
    this.muted = true;
    this.wide = true;
    this.emit('resize');
    this.muted = false;
    this.wide = false;
    this.emit('resize');
  };

  dispose(): void {
    this.real.off('resize', this.redraw);
  }
}
