// Usage of an account: requests per UTC day as a column chart in text over 7, 30 or 90 days, the totals, and the
// quotes of the period (Enter opens one).
import { Box, Text } from 'ink';
import {
  columnChart,
  formatCount,
  formatDollars,
  formatTime,
  MESSAGES,
  screenPath,
  USAGE_PERIODS,
  usageRequests,
  type CallResponse,
} from '@portal/core';
import { useClient, useUsage } from '@portal/core/react';
import { ListView } from '../components/ListView';
import { useLabel, useNav } from '../ui/context';

type UsageQuote = CallResponse<'clientUsage'>['quote']['list'][number];

export default function UsageScreen() {
  const nav = useNav();
  const { clientId } = nav.params as { clientId: string };
  const { client } = useClient(clientId);
  const usage = useUsage(clientId);
  useLabel(clientId, client?.name);
  const days = usage.data?.usage.days ?? [];
  const t = usage.data?.usage.totals;
  // 7 days get wide columns; 90 fit one character each.
  const colWidth = days.length <= 7 ? 6 : days.length <= 30 ? 2 : 1;
  const chart = columnChart(days.map(usageRequests), 6, colWidth);
  const next = () => {
    const i = USAGE_PERIODS.indexOf(usage.days as (typeof USAGE_PERIODS)[number]);
    usage.setDays(USAGE_PERIODS[(i + 1) % USAGE_PERIODS.length]);
  };
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        Usage of the last {usage.days} days (UTC){usage.loading ? ' …' : ''}
      </Text>
      {usage.error && !usage.data ? <Text color="red">{MESSAGES.loadUsage}</Text> : null}
      {t ? (
        <>
          <Text>Requests per day (max {Math.max(0, ...days.map(usageRequests))})</Text>
          {chart.map((line, i) => (
            <Text key={i} color="cyan">
              │{line}
            </Text>
          ))}
          <Text dimColor>
            └{days[0]?.date} … {days.at(-1)?.date}
          </Text>
          {/* Two lines, each inside 80 columns: the requests, then the parameters and the amount. */}
          <Text wrap="truncate-end">
            {formatCount(usageRequests(t))} requests ({t.fits} fit, {t.generates} generate, {t.shrinks} shrink)
          </Text>
          <Text wrap="truncate-end">
            {formatCount(t.parameters)} input parameters · {formatDollars(t.cents)} quoted
          </Text>
        </>
      ) : null}
      <ListView<UsageQuote>
        title="Quotes"
        rows={usage.data?.quote.list}
        loading={usage.loading}
        cols={[
          { header: 'Name', keep: true, get: (q) => q.name },
          { header: 'Status', keep: true, get: (q) => q.state },
          { header: 'Amount', get: (q) => formatDollars(q.cent) },
          { header: 'Invoice', get: (q) => q.invoiceNum },
          { header: 'Created', get: (q) => formatTime(q.createdAt), at: (q) => q.createdAt },
        ]}
        empty="No quotes in this period"
        keyOf={(q) => q.stamp}
        nameOf={(q) => q.name}
        onOpen={(q) => nav.go(screenPath('quoteDetails', { clientId, projectId: q.bucket, quoteId: q.stamp }))}
        onKey={(input) => {
          if (input !== 'p') return false;
          next();
          return true;
        }}
      />
    </Box>
  );
}
