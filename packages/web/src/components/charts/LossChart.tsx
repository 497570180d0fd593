// A fit's training and validation loss per epoch (MUI X Charts; loaded only by the pages that draw it).
import { LineChart } from '@mui/x-charts/LineChart';
import type { LossPoint } from '@portal/core';

export default function LossChart({ points }: { points: readonly LossPoint[] }) {
  return (
    <LineChart
      height={260}
      xAxis={[{ data: points.map((p) => p.epoch), label: 'Epoch', scaleType: 'linear', tickMinStep: 1 }]}
      series={[
        { data: points.map((p) => p.loss), label: 'Training loss', showMark: points.length < 30 },
        { data: points.map((p) => p.valLoss), label: 'Validation loss', showMark: points.length < 30 },
      ]}
      skipAnimation
    />
  );
}
