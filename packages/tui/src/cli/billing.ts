// `portal billing`: free credits, outstanding balance and the payment portal of an account.
import type { Command } from 'commander';
import { formatCount, formatDollars, freeCredits } from '@portal/core';
import type { Deps } from './context';
import { act, examples } from './common';

export function register(program: Command, deps: Deps): void {
  program
    .command('billing')
    .description("Show the account's free credits, balance and payment portal")
    .addHelpText('after', examples('portal billing', 'portal billing --client <id> --json'))
    .action(
      act(deps, async (s) => {
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
      }),
    );
}
