// `portal plan`: compare Plans: Individual versus Enterprise, and your current plan.
import { CONTACT_PATH, PLAN_LIMITS, PLAN_TABLE_ROWS, PLANS, upgradeTarget, type PlanName } from '@portal/core';
import { renderTable } from '../output';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'plan',
  summary: 'Compare Plans: Individual versus Enterprise, and your current plan',
  examples: ['portal plan', 'portal plan --client <id> --json'],
};

export type PlanOptions = Record<string, never>;

export async function run(_opts: PlanOptions, s: Session): Promise<void> {
  let current: PlanName | null = null;
  if ((await s.tokens()).get()) current = (await s.client()).plan;
  if (s.out.json) return s.out.printJson({ current, plans: PLAN_LIMITS });
  const label = (p: PlanName) => `${p}${p === 'Individual' ? ` (${PLAN_LIMITS[p].label})` : ''}${p === current ? ' [current]' : ''}`;
  s.deps.stdout.write(
    renderTable(
      PLAN_TABLE_ROWS.map(([key, name]) => [name, ...PLANS.map((p) => PLAN_LIMITS[p].table[key])]),
      [{ header: 'Feature', get: (r) => r[0] }, ...PLANS.map((p, i) => ({ header: label(p), get: (r: string[]) => r[i + 1] }))],
      s.out.tty,
    ),
  );
  s.out.notice('Enterprise limits are initial limits: contact us for an increase at no cost.');
  const upgrade = upgradeTarget(current);
  if (upgrade) s.out.notice(`Upgrade to ${upgrade}: contact us at ${await s.baseUrl()}${CONTACT_PATH}`);
}
