// Quote details: amount and invoice, the payment portal, and the processed request (refreshed until final).
import { Box, Text, useInput } from 'ink';
import { MESSAGES, formatDollars, formatTime, screenPath } from '@portal/core';
import { useBilling, useQuoteDetails } from '@portal/core/react';
import { Fields } from '../components/Form';
import { useLabel, useNav } from '../ui/context';

export default function QuoteDetailsScreen() {
  const nav = useNav();
  const { clientId, bucketId, quoteId } = nav.params as { clientId: string; bucketId: string; quoteId: string };
  const details = useQuoteDetails(clientId, bucketId, quoteId);
  const billing = useBilling(clientId);
  const quote = details.data?.quote.record;
  const run = details.data?.quote.run;
  useLabel(clientId, details.data?.client.name);
  useLabel(bucketId, details.data?.bucket.name);
  useLabel(quoteId, quote?.name);
  useInput((_input, key) => {
    if (key.return && run) {
      nav.setLabel(run.stamp, run.name);
      nav.go(screenPath('runDetails', { clientId, bucketId, runId: run.stamp }));
    }
  }, { isActive: !nav.menuFocused });
  if (!quote) return <Text>{details.loading ? 'Loading…' : details.error?.status === 404 ? MESSAGES.requestNotFound : MESSAGES.loadQuote}</Text>;
  return (
    <Box flexDirection="column">
      <Text bold>Quote Details</Text>
      <Fields
        rows={[
          ['Name', quote.name],
          ['Description', quote.desc],
          ['Status', quote.state],
          ['Invoice amount', formatDollars(quote.cent)],
          ['Invoice ID', quote.invoiceNum],
          ['Payment portal', billing.data?.portalUrl ?? '…'],
          ['Created', formatTime(quote.createdAt)],
          ['Upload', quote.rend?.name ?? '-'],
        ]}
      />
      {quote.message ? <Text color="red">{quote.message}</Text> : null}
      {run ? <Text color="cyan">[ Request: {run.name} · {run.state} ] press Enter to open</Text> : <Text dimColor>The request starts once the invoice is paid.</Text>}
    </Box>
  );
}
