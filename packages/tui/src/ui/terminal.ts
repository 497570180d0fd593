// The terminal as Ink sees it: the real stdout, except that a resize in either direction redraws the whole frame.
// A terminal reflows the old frame's long lines when it narrows or widens, so Ink's "erase the lines I drew last
// time" misses some of them and they stay on screen; Ink only starts over from a clear frame when the width shrinks.
import { EventEmitter } from 'node:events';

const CLEAR_SCREEN = '\x1b[2J\x1b[H';
/** How long React has to render the app at the new size before Ink draws it (a resize is a burst of events). */
const SETTLE_MS = 40;
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

  private pending: ReturnType<typeof setTimeout> | undefined;

  /**
   * Clears the screen and lets the app lay itself out at the new size without drawing (Ink would otherwise draw the
   * tree React has not yet re-rendered: a frame of the old width that the terminal wraps). A moment later, Ink is
   * shown a shrink, its full redraw from a clear frame, of the re-rendered tree.
   */
  private readonly redraw = () => {
    this.real.write(CLEAR_SCREEN);
    this.muted = true;
    this.emit('resize');
    clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.wide = true;
      this.emit('resize');
      this.wide = false;
      this.muted = false;
      this.emit('resize');
    }, SETTLE_MS);
  };

  dispose(): void {
    clearTimeout(this.pending);
    this.muted = false;
    this.real.off('resize', this.redraw);
  }
}
