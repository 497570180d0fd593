// A shrink quote: invoice amount and number, billing, the payment-portal link, and the processed request, live.
import { useEffect } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Alert, Box, Button, Chip, Link, Stack, Typography } from '@mui/material';
import { formatDollars, isMissing, MESSAGES, QUOTE_UNPAID, screenPath } from '@portal/core';
import { useBilling, useQuoteDetails } from '@portal/core/react';
import { Page, Section } from '../components/Page';
import { Loading } from '../components/Loading';
import { BillingSummary } from '../components/BillingSummary';
import { RunMessage } from '../components/RunMessage';
import { useCrumbNames } from '../layout/ChromeContext';
import { DetailField } from '../components/DetailField';
import { Time } from '../components/Time';
import { NotFound } from '../components/NotFound';

export default function QuoteDetailsPage() {
  const { clientId = '', projectId = '', quoteId = '' } = useParams();
  const status = useQuoteDetails(clientId, projectId, quoteId);
  const billing = useBilling(clientId);
  const state = status.data?.quote.record.state;
  const reloadBilling = billing.reload;
  // Paying the invoice changes the balance: billing is read again when the quote's state moves.
  useEffect(() => {
    if (state) void reloadBilling();
  }, [state, reloadBilling]);
  const quote = status.data?.quote.record;
  const run = status.data?.quote.run;
  useCrumbNames({ client: status.data?.client.name, project: status.data?.bucket.name, quote: quote?.name });

  if (!quote) {
    if (status.loading) return <Loading />;
    if (isMissing(status.error))
      return (
        <NotFound
          title={MESSAGES.requestNotFound}
          crumb={{ quote: MESSAGES.requestNotFound }}
          back={{ label: 'Back to requests', to: screenPath('runs', { clientId, projectId }) }}
        />
      );
    return (
      <Page title="Quote Details">
        <Alert severity="error" role="alert">
          {MESSAGES.loadQuote}
        </Alert>
      </Page>
    );
  }
  const portalUrl = billing.data?.portalUrl;
  // Once Paid there is nothing to pay: the payment button shows only while Unpaid (SPEC's billing link below stays).
  const payable = quote.state === QUOTE_UNPAID;
  return (
    <Page
      title={quote.name}
      actions={
        portalUrl &&
        payable && (
          <Button variant="contained" href={portalUrl} target="_blank" rel="noopener">
            Open payment portal
          </Button>
        )
      }
    >
      <Stack>
        <DetailField label="Status">
          <Box aria-live="polite">
            <Chip size="small" label={quote.state} color={quote.state === QUOTE_UNPAID ? 'warning' : 'success'} />
          </Box>
        </DetailField>
        <DetailField label="Invoice amount">{formatDollars(quote.cent)}</DetailField>
        <DetailField label="Invoice ID">{quote.invoiceNum}</DetailField>
        <DetailField label="Created">
          <Time at={quote.createdAt} />
        </DetailField>
        <DetailField label="Upload">
          {quote.rend?.name ?? (
            <Box component="span" sx={{ color: 'error.main' }}>
              {MESSAGES.uploadDataNotFound}
            </Box>
          )}
        </DetailField>
        {quote.desc && <DetailField label="Description">{quote.desc}</DetailField>}
        {quote.message && (
          <DetailField label="Message">
            <RunMessage message={quote.message} />
          </DetailField>
        )}
      </Stack>
      <Section title="Processed request">
        {run ? (
          <Stack spacing={0.5} aria-live="polite">
            <Link component={RouterLink} to={screenPath('runDetails', { clientId, projectId, runId: run.stamp })}>
              {run.name}
            </Link>
            <Typography>Status: {run.state}</Typography>
            <RunMessage message={run.message} />
          </Stack>
        ) : (
          <Typography color="text.secondary">The request starts once the invoice is paid.</Typography>
        )}
      </Section>
      <Section title="Billing">
        <BillingSummary billing={billing.data} />
        {portalUrl && (
          <Typography sx={{ mt: 1 }}>
            <Link href={portalUrl} target="_blank" rel="noopener">
              Payment portal
            </Link>
          </Typography>
        )}
      </Section>
    </Page>
  );
}
