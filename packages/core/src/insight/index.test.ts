import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../contract';
import { formatDuration, lossSeries, runInsight, progressBar, runDuration, runProgress, sparkline, stateTimeline, textBar } from './index';

const ev = (seq: number, kind: RunEvent['kind'], data: Record<string, unknown> | null, message = ''): RunEvent => ({
  seq,
  at: 100 + seq,
  kind,
  message,
  data,
});

describe('run insight rules', () => {
  const events = [
    ev(1, 'state', { state: 'Pending' }, 'Pending'),
    ev(2, 'state', { state: 'Processing' }, 'Processing'),
    ev(3, 'progress', {
      epoch: 2,
      epochs: 10,
      loss: 0.5,
      valLoss: 0.6,
      points: [
        { epoch: 1, loss: 0.9, valLoss: 1 },
        { epoch: 2, loss: 0.5, valLoss: 0.6 },
      ],
    }),
    ev(4, 'progress', { epoch: 3, epochs: 10, loss: 0.4, valLoss: 0.5, points: [{ epoch: 3, loss: 0.4, valLoss: 0.5 }] }),
    ev(5, 'log', null, 'Stopped early.'),
  ];

  it('reads the loss per epoch from every progress event, and the progress from the last', () => {
    expect(lossSeries(events)).toEqual([
      { epoch: 1, loss: 0.9, valLoss: 1 },
      { epoch: 2, loss: 0.5, valLoss: 0.6 },
      { epoch: 3, loss: 0.4, valLoss: 0.5 },
    ]);
    expect(runProgress({ state: 'Processing' }, events)).toEqual({ fraction: 0.3, label: 'Epoch 3 of 10' });
    expect(runProgress({ state: 'Processing' }, [ev(1, 'progress', { rows: 2500, total: 5000 })])).toEqual({
      fraction: 0.5,
      label: '2,500 of 5,000 rows',
    });
    expect(runProgress({ state: 'Pending' }, [])).toEqual({ fraction: null, label: 'Waiting to start' });
    expect(runProgress({ state: 'Finished' }, events).fraction).toBe(1);
    expect(stateTimeline(events).map((t) => [t.state, t.at])).toEqual([
      ['Pending', 101],
      ['Processing', 102],
    ]);
  });

  it("a generate request shows its model's training: the loss, and the progress while it waits", () => {
    const own = [ev(10, 'state', { state: 'Pending' }, 'Pending')];
    const waiting = runInsight({ state: 'Pending', function: 'generate' }, own, events);
    expect(waiting.progress).toEqual({ fraction: 0.3, label: 'Training its model: Epoch 3 of 10' });
    expect(waiting.loss.map((p) => p.epoch)).toEqual([1, 2, 3]);
    expect(waiting.timeline.map((t) => t.state)).toEqual(['Pending']);
    const trained = [...events, ev(6, 'state', { state: 'Finished' }, 'Finished')];
    expect(runInsight({ state: 'Pending', function: 'generate' }, own, trained).progress).toEqual({
      fraction: null,
      label: 'Waiting to start',
    });
    expect(runInsight({ state: 'Processing', function: 'fit' }, events).progress.label).toBe('Epoch 3 of 10');
  });

  it('durations, bars and sparklines', () => {
    expect(runDuration({ startedAt: 100, finishedAt: 225 })).toBe(125);
    expect(runDuration({ startedAt: 100, finishedAt: null }, 130)).toBe(30);
    expect(runDuration({ startedAt: null, finishedAt: null })).toBeNull();
    expect([formatDuration(45), formatDuration(125), formatDuration(7500), formatDuration(null)]).toEqual([
      '45 s',
      '2 min 5 s',
      '2 h 5 min',
      '-',
    ]);
    expect(progressBar(0.5, 10)).toBe('[█████░░░░░] 50%');
    expect(textBar(5, 10, 4)).toBe('██  ');
    expect(sparkline([3, 2, 1, 1])).toBe('█▅▁▁');
  });
});
