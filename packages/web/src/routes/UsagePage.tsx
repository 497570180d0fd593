// An account's usage: requests, input parameters and spend per UTC day over 7, 30 or 90 days, the totals, and the
// quotes of the period with their state, amount and links.
import { lazy, Suspense } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import {
  Alert,
  Box,
  LinearProgress,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { formatCount, formatDollars, formatTime, MESSAGES, screenPath, USAGE_PERIODS, usageRequests } from '@portal/core';
import { useUsage } from '@portal/core/react';
import { Page } from '../components/Page';
import { Loading } from '../components/Loading';
import { useRouteClient, useCrumbNames } from '../layout/ChromeContext';

// The chart library loads with the charts, not with the page (nor the login page).
const UsageCharts = lazy(() => import('../components/charts/UsageCharts'));

export default function UsagePage() {
  const { clientId = '' } = useParams();
  const client = useRouteClient(clientId);
  useCrumbNames({ client: client?.name });
  const usage = useUsage(clientId);
  const data = usage.data;
  const t = data?.usage.totals;
  return (
    <Page
      title="Usage"
      actions={
        <ToggleButtonGroup
          exclusive
          size="small"
          value={usage.days}
          onChange={(_, v: number | null) => v && usage.setDays(v)}
          aria-label="Period"
        >
          {USAGE_PERIODS.map((d) => (
            <ToggleButton key={d} value={d}>
              {d} days
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      }
    >
      {!data ? (
        usage.loading ? (
          <Loading />
        ) : (
          <Alert severity="error" role="alert">
            {MESSAGES.loadUsage}
          </Alert>
        )
      ) : (
        <>
          <Typography aria-label="Totals" aria-live="polite">
            Last {usage.days} days (UTC): {formatCount(usageRequests(t!))} requests ({t!.fits} fit, {t!.generates} generate, {t!.shrinks}{' '}
            shrink) · {formatCount(t!.parameters)} input parameters · {formatDollars(t!.cents)} quoted
          </Typography>
          {usage.loading && <LinearProgress aria-label="Loading" sx={{ mt: 1 }} />}
          <Suspense fallback={<LinearProgress aria-label="Loading the charts" sx={{ mt: 2 }} />}>
            <UsageCharts days={data.usage.days} />
          </Suspense>
          <Box component="section" aria-label="Quotes" sx={{ mt: 3 }}>
            <Typography variant="h2" sx={{ fontSize: '1.1rem' }}>
              Quotes
            </Typography>
            {data.quote.list.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                No quotes in this period
              </Typography>
            ) : (
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small">
                  <TableHead>
                    <TableRow>
                      <TableCell>Name</TableCell>
                      <TableCell>Status</TableCell>
                      <TableCell align="right">Amount</TableCell>
                      <TableCell>Invoice</TableCell>
                      <TableCell>Created</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.quote.list.map((q) => (
                      <TableRow key={q.stamp}>
                        <TableCell>
                          <Link component={RouterLink} to={screenPath('quoteDetails', { clientId, bucketId: q.bucket, quoteId: q.stamp })}>
                            {q.name}
                          </Link>
                        </TableCell>
                        <TableCell>{q.state}</TableCell>
                        <TableCell align="right">{formatDollars(q.cent)}</TableCell>
                        <TableCell>{q.invoiceNum}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(q.createdAt)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            )}
          </Box>
        </>
      )}
    </Page>
  );
}
