// How processing tells its worker how far it got: a report callback, throttled so a fast loop pays almost nothing.

/** What a processing call reports while it works: progress numbers, or a sentence for the user to read. */
export type ProcessingEvent =
  | { kind: 'progress'; message: string; data: Record<string, unknown> }
  | { kind: 'log'; message: string; data?: Record<string, unknown> | null };
export type Reporter = (event: ProcessingEvent) => void;

/** Progress reports at most this often. */
export const PROGRESS_EVERY_MS = 1000;

/**
 * A fit's epoch reporter: every epoch's losses are kept, and sent together at most once a second (and always for
 * the last epoch), so the loss chart has every epoch while the worker writes one event a second.
 */
export function epochReporter(report: Reporter | undefined, epochs: number, clock: () => number = Date.now) {
  let points: Array<{ epoch: number; loss: number; valLoss: number }> = [];
  let last = -Infinity;
  const round = (v: number) => Number(v.toPrecision(6));
  return (epoch: number, loss: number, valLoss: number, final: boolean) => {
    if (!report) return;
    points.push({ epoch, loss: round(loss), valLoss: round(valLoss) });
    const t = clock();
    if (!final && t - last < PROGRESS_EVERY_MS) return;
    last = t;
    report({
      kind: 'progress',
      message: `Epoch ${epoch} of ${epochs}: loss ${round(loss)}, validation loss ${round(valLoss)}`,
      data: { epoch, epochs, loss: round(loss), valLoss: round(valLoss), points },
    });
    points = [];
  };
}

/** A generate's row reporter: `{ rows, total }` at most once a second, and at the end. */
export function rowReporter(report: Reporter | undefined, total: number, clock: () => number = Date.now) {
  let last = clock();
  return (rows: number) => {
    if (!report) return;
    const t = clock();
    if (rows < total && t - last < PROGRESS_EVERY_MS) return;
    last = t;
    report({
      kind: 'progress',
      message: `${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`,
      data: { rows, total },
    });
  };
}
