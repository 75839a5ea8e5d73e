// The report's `lab` (docs/lab.md, "Report: `lab`"): what the lab audit measured, its raw axe-core
// verdicts replaced by what the accessibility checks made of them. Built after the checks ran, from
// their results, so the summary and the results can never disagree.
import type { Lab, LabAudit } from '../lab/lab-types.ts';
import { categoryScore } from '../scoring/score.ts';
import type { CheckResult } from './types.ts';

/** The accessibility checks' ids begin so (docs/checks.md). */
const ACCESSIBILITY_CHECK_PREFIX = 'a11y_';

/** The report's `lab` from a lab audit and the page's check results; null when the audit could not observe the page. */
export function labSummary(audit: LabAudit, results: Readonly<Record<string, CheckResult>>): Lab | null {
  if (!audit.ok) return null;
  const { accessibility: _raw, ...measured } = audit.measurement;
  const accessibilityResults = Object.entries(results).filter(([id]) => id.startsWith(ACCESSIBILITY_CHECK_PREFIX));
  return {
    ...measured,
    accessibility: {
      score: categoryScore(results, 'accessibility'),
      violations: accessibilityResults.filter(([, result]) => result.passed === false).length,
      rules_checked: accessibilityResults.filter(([, result]) => result.passed !== null).length,
    },
  };
}
