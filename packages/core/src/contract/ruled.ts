// A string schema checked by one of core's rules, so a rule lives once and the schema fails with its message.
import * as z from 'zod/mini';
import type { RuleResult } from '../rules/fields';

/** A string (trimmed first when asked) checked by one of core's rules, failing with that rule's message. */
export const ruled = (check: (v: string) => RuleResult, trimmed = false) =>
  z.string().check(
    ...(trimmed ? [z.trim()] : []),
    z.superRefine((v, ctx) => {
      const message = check(v);
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  );
