// `portal usage`: show the account's usage per day (UTC): requests, input parameters and amounts quoted.
import { DEFAULT_USAGE_DAYS, formatCount, formatDollars, textBar, usageRequests, USAGE_DAYS_MAX } from '@portal/core';
import { integer } from '../common';
import { usageError } from '../errors';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'usage',
  summary: "Show the account's usage per day (UTC): requests, input parameters and amounts quoted",
  flags: [{ flags: '--days <n>', description: `days back from today, 1 to ${USAGE_DAYS_MAX}`, default: String(DEFAULT_USAGE_DAYS) }],
  examples: ['portal usage', 'portal usage --days 7', 'portal usage --days 90 --json'],
};

export interface UsageOptions {
  days: string;
}

export async function run(opts: UsageOptions, s: Session): Promise<void> {
  const days = integer(opts.days, '--days')!;
  if (days < 1 || days > USAGE_DAYS_MAX) throw usageError(`--days must be from 1 to ${USAGE_DAYS_MAX}, got ${days}`);
  const client = await s.client();
  const api = await s.api();
  const res = await api.calls.clientUsage({ client: client.stamp, days });
  if (s.out.json) return s.out.printJson(res.usage);
  const max = Math.max(0, ...res.usage.days.map(usageRequests));
  s.out.list(
    res.usage.days,
    [
      { header: 'Date', get: (d) => d.date },
      { header: 'Fits', get: (d) => d.fits },
      { header: 'Generates', get: (d) => d.generates },
      { header: 'Shrinks', get: (d) => d.shrinks },
      { header: 'Parameters', get: (d) => formatCount(d.parameters) },
      { header: 'Quoted', get: (d) => formatDollars(d.cents) },
      // The chart only on a terminal: piped lines stay plain fields.
      ...(s.out.tty
        ? [{ header: 'Requests', get: (d: (typeof res.usage.days)[number]) => textBar(usageRequests(d), max, 20).trimEnd() }]
        : []),
    ],
    'No usage',
  );
  const t = res.usage.totals;
  s.out.notice(
    `${client.name}, last ${days} day${days === 1 ? '' : 's'}: ${formatCount(usageRequests(t))} requests (${t.fits} fit, ${t.generates} generate, ${t.shrinks} shrink), ${formatCount(t.parameters)} input parameters, ${formatDollars(t.cents)} quoted`,
  );
}
