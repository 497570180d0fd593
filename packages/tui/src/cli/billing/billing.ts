// `portal billing`: show the account's free credits, balance and payment portal.
import { formatCount, formatDollars, freeCredits } from '@portal/core';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'billing',
  summary: "Show the account's free credits, balance and payment portal",
  examples: ['portal billing', 'portal billing --client <id> --json'],
};

export type BillingOptions = Record<string, never>;

export async function run(_opts: BillingOptions, s: Session): Promise<void> {
  const client = await s.client();
  const api = await s.api();
  const { billing } = await api.calls.billingStatus({ client: client.stamp });
  const credits = freeCredits(billing);
  s.out.object(billing, [
    ['Account', client.name],
    ['Free credits consumed', `${formatCount(credits.consumed)} of ${formatCount(credits.total)} input parameters`],
    ['Free credits left', `${formatCount(credits.left)} input parameters`],
    ['Outstanding balance', formatDollars(billing.accountCentBalance)],
    ['Payment portal', billing.portalUrl],
  ]);
}
