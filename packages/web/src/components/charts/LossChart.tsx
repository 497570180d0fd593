// A fit's training and validation loss per epoch (MUI X Charts; loaded only by the pages that draw it).
import { LineChart } from '@mui/x-charts/LineChart';
import type { LossPoint } from '@portal/core';

// Epochs are whole numbers: the axis shows only whole ticks, and a single epoch still gets an axis from it to the next.
const epochLabel = (v: number) => (Number.isInteger(v) ? String(v) : '');

export default function LossChart({ points }: { points: readonly LossPoint[] }) {
  const first = points[0]?.epoch ?? 1;
  const last = points[points.length - 1]?.epoch ?? first;
  return (
    <LineChart
      height={260}
      xAxis={[
        {
          data: points.map((p) => p.epoch),
          label: 'Epoch',
          scaleType: 'linear',
          tickMinStep: 1,
          min: first,
          max: Math.max(last, first + 1),
          valueFormatter: epochLabel,
        },
      ]}
      yAxis={[{ width: 56 }]}
      series={[
        { data: points.map((p) => p.loss), label: 'Training loss', showMark: points.length < 30 },
        { data: points.map((p) => p.valLoss), label: 'Validation loss', showMark: points.length < 30 },
      ]}
      skipAnimation
    />
  );
}
