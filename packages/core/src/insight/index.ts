// Run insight rules shared by every door: a run's loss series, progress, state timeline and duration read from its
// event log; following a run's log until it settles; usage periods and text charts for terminals.
import type { ApiClient, CallOptions } from '../client';
import type { Run, RunEvent, UsageDay } from '../contract';
import { isFinalState, RUN_EVENTS_PAGE } from '../contract/constants';
import { sleep } from '../timers';

/** The states a request goes through (DESIGN.md), in order: the requests list filters on them. */
export const RUN_STATES = ['Pending', 'Processing', 'Finished', 'Failed'] as const;
export const RUN_FUNCTIONS = ['fit', 'generate', 'shrink'] as const;
/** The usage page's periods, in days. */
export const USAGE_PERIODS = [7, 30, 90] as const;
export const DEFAULT_USAGE_DAYS = 30;

/** The next value of a filter that cycles All ('') → each option → All (terminal keys). */
export function nextFilter<T extends string>(options: readonly T[], current: T | '' | undefined): T | '' {
  const i = current ? options.indexOf(current) : -1;
  return i + 1 < options.length ? options[i + 1] : '';
}

export interface LossPoint {
  epoch: number;
  loss: number;
  valLoss: number;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Training and validation loss per epoch, from a fit's progress events (each carries the epochs since the last). */
export function lossSeries(events: readonly RunEvent[]): LossPoint[] {
  const byEpoch = new Map<number, LossPoint>();
  for (const e of events) {
    if (e.kind !== 'progress' || !e.data) continue;
    const points = Array.isArray(e.data.points) ? (e.data.points as unknown[]) : [e.data];
    for (const p of points) {
      const o = (p ?? {}) as Record<string, unknown>;
      const epoch = num(o.epoch),
        loss = num(o.loss),
        valLoss = num(o.valLoss);
      if (epoch !== null && loss !== null && valLoss !== null) byEpoch.set(epoch, { epoch, loss, valLoss });
    }
  }
  return [...byEpoch.values()].sort((a, b) => a.epoch - b.epoch);
}

export interface RunProgress {
  /** 0 to 1, or null while nothing is known (Pending). */
  fraction: number | null;
  /** e.g. 'Epoch 12 of 96', '3,000 of 5,000 rows', 'Finished'. */
  label: string;
}

/** How far a run is: from its last progress event while it works; whole once Finished. */
export function runProgress(run: Pick<Run, 'state'>, events: readonly RunEvent[]): RunProgress {
  if (run.state === 'Finished') return { fraction: 1, label: 'Finished' };
  if (run.state === 'Failed') return { fraction: null, label: 'Failed' };
  const last = [...events].reverse().find((e) => e.kind === 'progress' && e.data);
  const d = last?.data ?? {};
  const epoch = num(d.epoch),
    epochs = num(d.epochs),
    rows = num(d.rows),
    total = num(d.total);
  if (epoch !== null && epochs) return { fraction: Math.min(1, epoch / epochs), label: `Epoch ${epoch} of ${epochs}` };
  if (rows !== null && total)
    return { fraction: Math.min(1, rows / total), label: `${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows` };
  return { fraction: null, label: run.state === 'Processing' ? 'Processing' : 'Waiting to start' };
}

/**
 * What request details show of a run's work: its own progress and loss; for a generate request, the loss of the
 * training of its model (the fit's events), and while it waits for that training, the training's progress.
 */
export function runInsight(run: Pick<Run, 'state' | 'function'>, events: readonly RunEvent[], modelEvents: readonly RunEvent[] = []) {
  const ofModel = run.function === 'generate' && modelEvents.length > 0;
  const waiting = ofModel && run.state === 'Pending' && !settledIn(modelEvents);
  let progress = runProgress(run, events);
  if (waiting) {
    const training = runProgress({ state: 'Processing' }, modelEvents);
    progress = {
      fraction: training.fraction,
      label: training.fraction === null ? 'Training its model' : `Training its model: ${training.label}`,
    };
  }
  return { progress, loss: lossSeries(ofModel ? modelEvents : events), timeline: stateTimeline(events) };
}

/** Every state the run was in, with when it entered it. */
export function stateTimeline(events: readonly RunEvent[]): Array<{ state: string; at: number; message: string }> {
  return events
    .filter((e) => e.kind === 'state')
    .map((e) => ({ state: typeof e.data?.state === 'string' ? e.data.state : e.message, at: e.at, message: e.message }));
}

/** Seconds a run has taken: from start to settling, or to now while it works; null before it started. */
export function runDuration(run: Pick<Run, 'startedAt' | 'finishedAt'>, nowS: number = Date.now() / 1000): number | null {
  if (run.startedAt === null || run.startedAt === undefined) return null;
  return Math.max(0, Math.round((run.finishedAt ?? nowS) - run.startedAt));
}

/** '45 s', '3 min 20 s', '2 h 5 min'; '-' when unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '-';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
}

/** Fit and generate requests can be made again with the same upload and parameters; a shrink is a new quote. */
export const canRerun = (run: Pick<Run, 'function'>) => run.function !== 'shrink';

/** The run has settled once a state event names a final state. */
export const settledIn = (events: readonly RunEvent[]) =>
  events.some((e) => e.kind === 'state' && isFinalState(String(e.data?.state ?? '')));

/** One event as a line of text: time (UTC), kind and message. */
export function formatEvent(e: RunEvent): string {
  return `${new Date(e.at * 1000).toISOString().replace('.000Z', 'Z')}  ${e.kind.padEnd(8)} ${e.message}`;
}

export interface FollowOptions extends CallOptions {
  /** Start after this event. */
  after?: number;
  /** Keep asking until the run settles (else one page of what is there). */
  follow?: boolean;
  pollMs?: number;
  /** How to wait between polls (injected by the CLI and tests). */
  wait?: (ms: number) => Promise<void>;
}

/**
 * Calls `onEvent` for each event of a run in order; with `follow`, keeps asking until the run settles (a final
 * state event, or the run's record final with no events left).
 */
export async function followRunEvents(api: ApiClient, run: string, onEvent: (e: RunEvent) => void, o: FollowOptions = {}): Promise<void> {
  let after = o.after ?? 0;
  const { signal } = o;
  for (;;) {
    const page = (await api.calls.runEvents({ run, after }, { signal })).event.list;
    for (const e of page) onEvent(e);
    if (page.length) after = page[page.length - 1].seq;
    if (settledIn(page)) return;
    // A full page: more are there now, whether following or not.
    if (page.length >= RUN_EVENTS_PAGE) continue;
    if (!o.follow) return;
    if (!page.length) {
      // Runs made before events were kept have no final event: their record says whether to stop.
      const status = await api.calls.runStatus({ run }, { signal });
      if (isFinalState(status.run.record.state)) {
        const rest = (await api.calls.runEvents({ run, after }, { signal })).event.list;
        for (const e of rest) onEvent(e);
        return;
      }
    }
    const ms = o.pollMs ?? 1000;
    await (o.wait ? o.wait(ms) : sleep(ms, signal));
  }
}

const BLOCKS = '▁▂▃▄▅▆▇█';

/** Values as a one-line sparkline of at most `width` characters (the last values when there are more). */
export function sparkline(values: readonly number[], width = 40): string {
  const v = values.filter((x) => Number.isFinite(x)).slice(-width);
  if (!v.length) return '';
  const lo = Math.min(...v),
    hi = Math.max(...v);
  return v.map((x) => BLOCKS[hi === lo ? 0 : Math.round(((x - lo) / (hi - lo)) * (BLOCKS.length - 1))]).join('');
}

/** A horizontal bar of `width` characters for value/max, e.g. '█████     '. */
export function textBar(value: number, max: number, width = 30): string {
  const n = max > 0 ? Math.round((Math.max(0, value) / max) * width) : 0;
  return '█'.repeat(n) + ' '.repeat(Math.max(0, width - n));
}

/**
 * A column chart in text: one column per value (each `colWidth` characters wide), `height` lines tall, top line
 * first, with eighth blocks at the tops so small values still show.
 */
export function columnChart(values: readonly number[], height = 6, colWidth = 1): string[] {
  const max = Math.max(0, ...values);
  const eighths = values.map((v) => (max > 0 ? Math.round((Math.max(0, v) / max) * height * 8) : 0));
  const lines: string[] = [];
  for (let row = height - 1; row >= 0; row--) {
    lines.push(
      eighths
        .map((e) => {
          const fill = Math.min(8, Math.max(0, e - row * 8));
          return (fill === 0 ? ' ' : fill === 8 ? '█' : BLOCKS[fill - 1]).repeat(colWidth);
        })
        .join(''),
    );
  }
  return lines;
}

/** A progress bar for a fraction, e.g. '[██████░░░░] 60%'. */
export function progressBar(fraction: number | null, width = 20): string {
  if (fraction === null) return `[${'░'.repeat(width)}]`;
  const n = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'█'.repeat(n)}${'░'.repeat(width - n)}] ${Math.round(fraction * 100)}%`;
}

/** Requests of a usage day (fits, generates and shrinks). */
export const usageRequests = (d: Pick<UsageDay, 'fits' | 'generates' | 'shrinks'>) => d.fits + d.generates + d.shrinks;
