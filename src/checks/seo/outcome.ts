// Turning what a check found into its outcome, the same way in every SEO check.
import type { CheckErrors, CheckOutcome } from '../check.ts';

/** Passed when no kind of error was recorded; `errors` is null then. */
export function outcomeFromErrors(value: unknown, errors: CheckErrors): CheckOutcome {
  return Object.keys(errors).length === 0 ? { passed: true, value, errors: null } : { passed: false, value, errors };
}
