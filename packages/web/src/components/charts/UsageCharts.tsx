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

// Axis numbers in a short form (1.5K, 2M) on an axis wide enough for them: labels are never cut.
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const countAxis = [{ width: 56, valueFormatter: (v: number | null) => compact.format(v ?? 0), tickMinStep: 1 }];
const dollarAxis = [{ width: 64, valueFormatter: (v: number | null) => `$${compact.format(v ?? 0)}` }];

export default function UsageCharts({ days }: { days: readonly UsageDay[] }) {
  // Short labels (MM-DD) keep 90 days readable; the tooltip shows the same.
  const x = [{ data: days.map((d) => d.date.slice(5)), scaleType: 'band' as const }];
  return (
    <Stack>
      <Chart title="Requests per day">
        <BarChart
          height={240}
          xAxis={x}
          yAxis={countAxis}
          series={[
            { data: days.map((d) => d.fits), label: 'Fit', stack: 'requests' },
            { data: days.map((d) => d.generates), label: 'Generate', stack: 'requests' },
            { data: days.map((d) => d.shrinks), label: 'Shrink', stack: 'requests' },
          ]}
          skipAnimation
        />
      </Chart>
      <Chart title="Input parameters per day">
        <BarChart
          height={220}
          xAxis={x}
          yAxis={countAxis}
          series={[{ data: days.map((d) => d.parameters), label: 'Input parameters' }]}
          skipAnimation
        />
      </Chart>
      <Chart title="Spend per day">
        <BarChart
          height={220}
          xAxis={x}
          yAxis={dollarAxis}
          series={[
            { data: days.map((d) => d.cents / 100), label: 'Quoted', valueFormatter: (v) => formatDollars(Math.round((v ?? 0) * 100)) },
          ]}
          skipAnimation
        />
      </Chart>
    </Stack>
  );
}
