// Runs every registered check over one page. Each check is isolated: one that throws becomes
// `passed: null, reason: "internal error"` and is logged, so the report survives.
import type { CheckContext, CheckDefinition, CheckOutcome } from '../checks/check.ts';
import type { CheckResult } from '../analysis/types.ts';

export type CheckFailureLogger = (checkId: string, error: unknown) => void;

function toResult(check: CheckDefinition, outcome: CheckOutcome): CheckResult {
  if (outcome.passed === null) {
    return {
      passed: null,
      importance: check.importance,
      category: check.category,
      value: outcome.value ?? null,
      errors: null,
      reason: outcome.reason,
    };
  }
  const errors = outcome.passed || !outcome.errors || Object.keys(outcome.errors).length === 0 ? null : outcome.errors;
  return {
    passed: outcome.passed,
    importance: check.importance,
    category: check.category,
    value: outcome.value ?? null,
    errors,
  };
}

export function runChecks(
  checks: readonly CheckDefinition[],
  context: CheckContext,
  onCheckFailure: CheckFailureLogger = () => {},
): Record<string, CheckResult> {
  const results: Record<string, CheckResult> = {};
  for (const check of checks) {
    try {
      results[check.id] = toResult(check, check.run(context));
    } catch (error) {
      onCheckFailure(check.id, error);
      results[check.id] = {
        passed: null,
        importance: check.importance,
        category: check.category,
        value: null,
        errors: null,
        reason: 'internal error',
      };
    }
  }
  return results;
}
