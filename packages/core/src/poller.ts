// The growing interval of the shrink file picker (SPEC section 4): 20 s, +20 s per unchanged result up to 60 s, reset
// on change. The picker's hook reads on the shared cache's polls (refetchInterval); what counts as a change is here.

/**
 * Whether two answers are the same (by JSON). `ignore` names fields that differ on every answer without the data
 * changing (a signed link such as `billing.portalUrl`): they are left out of the comparison.
 */
export function sameAnswer(a: unknown, b: unknown, ignore: readonly string[] = []): boolean {
  const skip = new Set(ignore);
  const replacer = skip.size ? (key: string, v: unknown) => (skip.has(key) ? undefined : v) : undefined;
  return JSON.stringify(a, replacer) === JSON.stringify(b, replacer);
}

/** Fields of the shrink picker's answers that change on every call: signed links with a fresh expiry and signature. */
export const VOLATILE_FIELDS = ['portalUrl'] as const;
