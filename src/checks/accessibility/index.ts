// The accessibility checks (docs/lab.md, "New category `accessibility`"): one for each axe-core rule
// a lab audit runs (lab/axe-rules.ts), made from the rule's own metadata when this module loads, so
// the catalogue is the engine's, rule for rule, in axe-core's order. Each reads axe-core's verdict
// from the lab audit; without one it does not apply, so a report without a lab audit scores as
// before.
import { capItems, defineCheck, notApplicable, type CheckDefinition, type Importance } from '../check.ts';
import { labMeasurement } from '../lab-audit.ts';
import { AXE_RULES, type AxeImpact, type AxeRule } from '../../lab/axe-rules.ts';
import { Int, Obj } from '../value-schema.ts';

/** Points follow axe-core's impact: what a violation costs the people it affects. */
const IMPORTANCE_BY_IMPACT: Readonly<Record<AxeImpact, Importance>> = { critical: 'high', serious: 'high', moderate: 'medium', minor: 'low' };

export const INAPPLICABLE_REASON = 'No element on the page this rule applies to.';
export const NEEDS_REVIEW_REASON = 'axe-core could only mark this rule as needing review: a person has to judge the elements it found.';

/** `image-alt` -> `a11y_image_alt` */
export function accessibilityCheckId(ruleId: string): string {
  return `a11y_${ruleId.replaceAll('-', '_')}`;
}

const AccessibilityValue = Obj({ nodes: Int({ description: 'elements that violate the rule; 0 when it passed' }) });

const LABELS: Readonly<Record<string, string>> = {
  nodes: 'Elements in violation', violations: 'Elements in violation', selector: 'Element', snippet: 'HTML', message: 'What is wrong',
};

function accessibilityCheck(rule: AxeRule): CheckDefinition {
  return defineCheck<typeof AccessibilityValue>({
    id: accessibilityCheckId(rule.id),
    category: 'accessibility',
    importance: IMPORTANCE_BY_IMPACT[rule.impact],
    // axe-core words its help as the requirement ("Images must have alternative text"): it reads as
    // what holds when the check passes and what is missing when it fails.
    title: rule.help,
    failureTitle: rule.help,
    description: rule.description,
    howToFix: `See ${rule.helpUrl} for what the rule asks and how to fix each element listed.`,
    learnMoreUrl: rule.helpUrl,
    labels: LABELS,
    value: AccessibilityValue,
    run({ lab }) {
      const audit = labMeasurement(lab);
      if ('reason' in audit) return notApplicable(audit.reason);
      const run = audit.measurement.accessibility;
      if (!run.ok) return notApplicable(run.reason);
      const outcome = Object.hasOwn(run.rules, rule.id) ? run.rules[rule.id] : undefined;
      switch (outcome?.outcome) {
        case 'violation':
          return { passed: false, value: { nodes: outcome.nodes }, errors: { violations: capItems(outcome.violations) } };
        case 'passed':
          return { passed: true, value: { nodes: 0 }, errors: null };
        case 'incomplete':
          return notApplicable(NEEDS_REVIEW_REASON);
        default:
          // Inapplicable, or not reported at all: axe-core reports every rule it ran.
          return notApplicable(INAPPLICABLE_REASON);
      }
    },
  });
}

export const accessibilityChecks: readonly CheckDefinition[] = AXE_RULES.map(accessibilityCheck);
