// Turning what a check found into its outcome, the same way in every SEO check.
import type { CheckErrors, CheckOutcome } from '../check.ts';

/** Passed when no kind of error was recorded; `errors` is null then. */
export function outcomeFromErrors<V>(value: V, errors: CheckErrors): CheckOutcome<V> {
  return Object.keys(errors).length === 0 ? { passed: true, value, errors: null } : { passed: false, value, errors };
}
