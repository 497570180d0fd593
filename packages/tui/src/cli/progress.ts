// Upload progress on stderr: one bar per file (bytes, percent, speed, time left); plain lines when not a TTY.
import { formatSize, type UploadProgress } from '@portal/core';
import type { OutStream } from './output';

const WIDTH = 24;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** One line of the bar, e.g. `data.json [=======>      ] 45% 4.5 MB/10 MB 12 MB/s 0:01 left`. */
export function progressLine(p: UploadProgress, elapsedMs: number): string {
  const fraction = p.total > 0 ? Math.min(1, p.loaded / p.total) : 1;
  const filled = Math.round(fraction * WIDTH);
  const bar = '='.repeat(Math.max(0, filled - 1)) + (filled > 0 ? (fraction < 1 ? '>' : '=') : '') + ' '.repeat(WIDTH - filled);
  const speed = elapsedMs > 0 ? (p.loaded * 1000) / elapsedMs : 0;
  const left = speed > 0 ? (p.total - p.loaded) / speed : NaN;
  return `${p.file} [${bar}] ${Math.floor(fraction * 100)}% ${formatSize(p.loaded)}/${formatSize(p.total)} ${formatSize(speed)}/s ${fraction >= 1 ? duration(elapsedMs / 1000) : `${duration(left)} left`}`;
}

export function progressReporter(stderr: OutStream, now: () => number) {
  const tty = !!stderr.isTTY;
  let current = -1;
  let started = 0;
  let lastDraw = 0;
  let last: UploadProgress | null = null;
  const end = () => {
    if (!last) return;
    if (tty) stderr.write(`\r${progressLine(last, now() - started)}\x1b[K\n`);
    else stderr.write(progressLine(last, now() - started) + '\n');
    last = null;
  };
  return {
    update(p: UploadProgress): void {
      if (p.index !== current) {
        current = p.index;
        started = now();
        lastDraw = 0;
      }
      last = p;
      const t = now();
      // Redraw at most ten times a second: a fast local upload sends thousands of chunks.
      if (tty && (t - lastDraw >= 100 || p.loaded >= p.total)) {
        lastDraw = t;
        stderr.write(`\r${progressLine(p, t - started)}\x1b[K`);
      }
    },
    /** Ends the current file's bar (called when its item is finished). */
    fileDone: end,
  };
}
