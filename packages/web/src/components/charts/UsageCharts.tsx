// A client's usage per UTC day: requests (stacked by function), input parameters and spend (MUI X Charts; loaded
// only by the usage page).
import { BarChart } from '@mui/x-charts/BarChart';
import { Stack, Typography } from '@mui/material';
import { formatDollars, type UsageDay } from '@portal/core';

function Chart({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title}>
      <Typography variant="h2" sx={{ fontSize: '1.1rem', mt: 2 }}>
        {title}
      </Typography>
      {children}
    </section>
  );
}

export default function UsageCharts({ days }: { days: readonly UsageDay[] }) {
  // Short labels (MM-DD) keep 90 days readable; the tooltip shows the same.
  const x = [{ data: days.map((d) => d.date.slice(5)), scaleType: 'band' as const }];
  return (
    <Stack>
      <Chart title="Requests per day">
        <BarChart
          height={240}
          xAxis={x}
          series={[
            { data: days.map((d) => d.fits), label: 'Fit', stack: 'requests' },
            { data: days.map((d) => d.generates), label: 'Generate', stack: 'requests' },
            { data: days.map((d) => d.shrinks), label: 'Shrink', stack: 'requests' },
          ]}
          skipAnimation
        />
      </Chart>
      <Chart title="Input parameters per day">
        <BarChart height={220} xAxis={x} series={[{ data: days.map((d) => d.parameters), label: 'Input parameters' }]} skipAnimation />
      </Chart>
      <Chart title="Spend per day">
        <BarChart
          height={220}
          xAxis={x}
          series={[
            { data: days.map((d) => d.cents / 100), label: 'Quoted', valueFormatter: (v) => formatDollars(Math.round((v ?? 0) * 100)) },
          ]}
          skipAnimation
        />
      </Chart>
    </Stack>
  );
}
