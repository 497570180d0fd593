// A client's usage per UTC day: requests (stacked by function), input parameters and spend (MUI X Charts; loaded
// only by the usage page).
import { BarChart } from '@mui/x-charts/BarChart';
import { Stack, Typography } from '@mui/material';
import { formatDollars, type UsageDay } from '@portal/core';

type BarProps = React.ComponentProps<typeof BarChart>;

// Axis numbers in a short form (1.5K, 2M) on an axis wide enough for them: labels are never cut.
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const countAxis = [{ width: 56, valueFormatter: (v: number | null) => compact.format(v ?? 0), tickMinStep: 1 }];
const dollarAxis = [{ width: 64, valueFormatter: (v: number | null) => `$${compact.format(v ?? 0)}` }];

/** The three charts, in their order: each its title, height, value axis and bars of the days. */
const CHARTS: ReadonlyArray<{
  title: string;
  height: number;
  yAxis: BarProps['yAxis'];
  series(days: readonly UsageDay[]): BarProps['series'];
}> = [
  {
    title: 'Requests per day',
    height: 240,
    yAxis: countAxis,
    series: (days) => [
      { data: days.map((d) => d.fits), label: 'Fit', stack: 'requests' },
      { data: days.map((d) => d.generates), label: 'Generate', stack: 'requests' },
      { data: days.map((d) => d.shrinks), label: 'Shrink', stack: 'requests' },
    ],
  },
  {
    title: 'Input parameters per day',
    height: 220,
    yAxis: countAxis,
    series: (days) => [{ data: days.map((d) => d.parameters), label: 'Input parameters' }],
  },
  {
    title: 'Spend per day',
    height: 220,
    yAxis: dollarAxis,
    series: (days) => [
      { data: days.map((d) => d.cents / 100), label: 'Quoted', valueFormatter: (v) => formatDollars(Math.round((v ?? 0) * 100)) },
    ],
  },
];

export default function UsageCharts({ days }: { days: readonly UsageDay[] }) {
  // Short labels (MM-DD) keep 90 days readable; the tooltip shows the same.
  const x = [{ data: days.map((d) => d.date.slice(5)), scaleType: 'band' as const }];
  return (
    <Stack>
      {CHARTS.map((chart) => (
        <section key={chart.title} aria-label={chart.title}>
          <Typography variant="h2" sx={{ fontSize: '1.1rem', mt: 2 }}>
            {chart.title}
          </Typography>
          <BarChart height={chart.height} xAxis={x} yAxis={chart.yAxis} series={chart.series(days)} skipAnimation />
        </section>
      ))}
    </Stack>
  );
}
