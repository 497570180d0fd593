// The shrink price rule, once for every door and the server: estimate - free credit = amount due, in cents.
import { creditToInputs, formatDollars, priceCents, uploadInputs } from './format';
import { MESSAGES } from './messages';

export interface ShrinkPrice {
  /** Input parameters the model holds (SPEC: summed over the upload's meta.inputs). */
  inputs: number;
  /** Of them, how many the remaining free credit covers. */
  freeInputs: number;
  /** $0.22 per started million of all the inputs. */
  estimateCents: number;
  /** What the free credit takes off the estimate. */
  freeCreditCents: number;
  /** What the quote will bill: $0.22 per started million beyond the free credit. */
  amountDueCents: number;
}

/**
 * The price of a shrink of `inputs` parameters with `creditLeft` input parameters of free credit left. Free credit
 * is spent first; the amount due is priced on what remains, and the free credit's worth is the difference, so the
 * three figures always add up (started millions make it more than a plain product).
 */
export function shrinkPrice(inputs: number, creditLeft: number): ShrinkPrice {
  const n = Number.isFinite(inputs) && inputs > 0 ? Math.floor(inputs) : 0;
  const freeInputs = Math.min(n, Number.isFinite(creditLeft) && creditLeft > 0 ? Math.floor(creditLeft) : 0);
  const estimateCents = priceCents(n);
  const amountDueCents = priceCents(n - freeInputs);
  return { inputs: n, freeInputs, estimateCents, freeCreditCents: estimateCents - amountDueCents, amountDueCents };
}

/** "Estimate $0.44 - free credit $0.22 = amount due $0.22": the line every shrink form shows before billing. */
export function formatShrinkPrice(p: ShrinkPrice): string {
  return `Estimate ${formatDollars(p.estimateCents)} - free credit ${formatDollars(p.freeCreditCents)} = amount due ${formatDollars(p.amountDueCents)}`;
}

/** The question asked before a quote is created: what will be billed, or that free credit covers it. */
export function shrinkConfirmQuestion(p: ShrinkPrice): string {
  return p.amountDueCents > 0 ? MESSAGES.shrinkConfirmBilled(formatDollars(p.amountDueCents)) : MESSAGES.shrinkConfirmFree;
}

/**
 * The price of a shrink on this upload with this billing, from what the client already holds (the upload list's
 * meta.inputs and billing's creditBalance); null while either is unknown or the upload has not been counted.
 */
export function shrinkPriceOf(
  upload: { flight: string; upload: { list: ReadonlyArray<{ meta: { inputs: number | null } }> } } | undefined,
  billing: { creditBalance: string } | undefined,
): ShrinkPrice | null {
  if (!upload || !billing || upload.flight !== 'Ready') return null;
  return shrinkPrice(uploadInputs(upload.upload.list), creditToInputs(billing.creditBalance));
}
