// Quote details: invoice amount and ID, the processed request (refreshed until final), billing and the payment
// portal's link (the quote is paid there, in a browser: p copies the link, which works over SSH too).
import { useEffect } from 'react';
import { Box, Text, useInput } from 'ink';
import {
  CONTACT_PATH,
  MESSAGES,
  formatCount,
  formatDollars,
  formatTime,
  freeCredits,
  isMissing,
  screenPath,
  printable,
} from '@portal/core';
import { useBilling, useNotify, useQuoteDetails } from '@portal/core/react';
import { Fields } from '../components/Form';
import { useLabel, useNav } from '../ui/context';

export default function QuoteDetailsScreen() {
  const nav = useNav();
  const notify = useNotify();
  const { clientId, projectId, quoteId } = nav.params as { clientId: string; projectId: string; quoteId: string };
  const details = useQuoteDetails(clientId, projectId, quoteId);
  const billing = useBilling(clientId);
  const quote = details.data?.quote.record;
  const run = details.data?.quote.run;
  const portalUrl = billing.data?.portalUrl;
  useLabel(clientId, details.data?.client.name);
  useLabel(projectId, details.data?.bucket.name);
  useLabel(quoteId, quote?.name);
  // Paying the invoice changes the balance: billing is read again when the quote's state moves.
  const state = quote?.state;
  const reloadBilling = billing.reload;
  useEffect(() => {
    if (state) void reloadBilling();
  }, [state, reloadBilling]);
  useInput(
    (input, key) => {
      if (key.return && run) {
        nav.setLabel(run.stamp, run.name);
        nav.go(screenPath('runDetails', { clientId, projectId, runId: run.stamp }));
      } else if (input === 'p' && portalUrl) {
        // The frame shows what was copied; only a failure needs saying.
        void nav.io.copy(portalUrl, 'the payment portal link').catch(() => notify(MESSAGES.unexpected, 'error'));
      }
    },
    { isActive: !nav.menuFocused },
  );
  if (!quote) {
    if (details.loading) return <Text>Loading…</Text>;
    return <Text>{isMissing(details.error) ? MESSAGES.requestNotFound : MESSAGES.loadQuote}</Text>;
  }
  const contact = `${nav.io.baseUrl}${CONTACT_PATH}`;
  const credits = billing.data ? freeCredits(billing.data) : null;
  return (
    <Box flexDirection="column">
      <Text bold>{printable(quote.name)}</Text>
      <Fields
        rows={[
          ['Status', quote.state],
          ['Invoice amount', formatDollars(quote.cent)],
          ['Invoice ID', quote.invoiceNum],
          ['Created', formatTime(quote.createdAt)],
          ['Upload', quote.rend?.name ?? <Text color="red">{MESSAGES.uploadDataNotFound}</Text>],
          ...(quote.desc ? [['Description', quote.desc] as const] : []),
          ...(quote.message
            ? [
                [
                  'Message',
                  <Text color="red">
                    {quote.message} · Contact Support: {contact}
                  </Text>,
                ] as const,
              ]
            : []),
        ]}
      />
      <Text> </Text>
      <Text bold>Processed request</Text>
      {run ? (
        <Box flexDirection="column">
          <Text color="cyan">[ {printable(run.name)} ] press Enter to open</Text>
          <Text>Status: {run.state}</Text>
          {run.message ? (
            <Text color="red">
              {run.message} · Contact Support: {contact}
            </Text>
          ) : null}
        </Box>
      ) : (
        <Text dimColor>The request starts once the invoice is paid.</Text>
      )}
      <Text> </Text>
      <Text bold>Billing</Text>
      {credits ? (
        <Box flexDirection="column">
          <Text>
            Free credits: {formatCount(credits.consumed)} of {formatCount(credits.total)} input parameters used
          </Text>
          <Text>Outstanding balance: {formatDollars(billing.data!.accountCentBalance)}</Text>
        </Box>
      ) : (
        <Text dimColor>Loading billing…</Text>
      )}
      {portalUrl ? (
        <Text>
          Payment portal: <Text color="cyan">{portalUrl}</Text> <Text dimColor>(p copy)</Text>
        </Text>
      ) : null}
    </Box>
  );
}
