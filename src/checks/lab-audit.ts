// What the lab checks (performance/ largest-contentful-paint and its siblings, accessibility/) read of
// a lab audit, and why they do not apply when there is nothing to read (docs/lab.md).
import type { LabAudit, LabMeasurement } from '../lab/lab-types.ts';

/**
 * Why a lab check does not apply to a report made without a lab audit, in the API's words (the command
 * line says it in its own, as it does for `render=1`).
 */
export const NO_LAB_AUDIT_REASON = 'No lab audit was made (lab=1 makes one).';

/** The audit's measurement, or the reason a lab check does not apply: none was made, or it could not observe the page. */
export function labMeasurement(lab: LabAudit | undefined): { measurement: LabMeasurement } | { reason: string } {
  if (lab === undefined) return { reason: NO_LAB_AUDIT_REASON };
  if (!lab.ok) return { reason: lab.reason };
  return { measurement: lab.measurement };
}
