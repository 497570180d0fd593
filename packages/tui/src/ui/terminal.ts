// The terminal as Ink sees it: the real stdout, except that a resize in either direction redraws the whole frame.
// A terminal reflows the old frame's long lines when it narrows or widens, so Ink's "erase the lines I drew last
// time" misses some of them and they stay on screen; Ink only starts over from a clear frame when the width shrinks.
import { EventEmitter } from 'node:events';

const CLEAR_SCREEN = '\x1b[2J\x1b[H';
/**
 * How long a burst of resize events (a window being dragged) is gathered before Ink draws at the new size; React has
 * re-rendered the app at each event already (Ink's legacy root renders synchronously).
 */
const SETTLE_MS = 16;
/**
 * How much wider than the terminal Ink is told it is for a moment, so that the real width that follows reads as a
 * shrink. One column: Ink lays out and renders a frame at that width (a grid of width x height cells), so a width
 * "wider than any terminal" (100,000 columns) took seconds of the event loop on every resize, the screen blank.
 */
const WIDER_BY = 1;

export class TerminalOut extends EventEmitter {
  private muted = false;
  private wide = false;

  constructor(private readonly real: NodeJS.WriteStream) {
    super();
    real.on('resize', this.redraw);
  }

  get columns(): number {
    return this.wide ? this.real.columns + WIDER_BY : this.real.columns;
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
