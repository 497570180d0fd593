// Free credits (consumed of total, in input parameters) and the outstanding balance, from the client's billing.
import { Stack, Typography } from '@mui/material';
import { formatCount, formatDollars, freeCredits, type Billing } from '@portal/core';

export function BillingSummary({ billing }: { billing: Billing | undefined }) {
  if (!billing) return <Typography color="text.secondary">Loading billing…</Typography>;
  const credits = freeCredits(billing);
  return (
    <Stack spacing={0.5}>
      <Typography>
        Free credits: {formatCount(credits.consumed)} of {formatCount(credits.total)} input parameters used
      </Typography>
      <Typography>Outstanding balance: {formatDollars(billing.accountCentBalance)}</Typography>
    </Stack>
  );
}
