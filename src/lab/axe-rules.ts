// The accessibility rules a lab audit runs (docs/lab.md, "New category `accessibility`"): axe-core's
// rules with any of the WCAG 2.0, 2.1 and 2.2 A and AA tags, experimental and deprecated ones left
// out as axe-core leaves them out of a tag run. Read from the installed axe-core at load, so the
// catalogue of checks (checks/accessibility/) and the run in the browser (accessibility.ts) are
// always the engine's own, rule for rule.
import { createRequire } from 'node:module';
import type AxeCore from 'axe-core';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;
/** Tags axe-core keeps out of a tag run unless asked for by name. */
const LEFT_OUT_TAGS: readonly string[] = ['experimental', 'deprecated'];

export type AxeImpact = 'critical' | 'serious' | 'moderate' | 'minor';
const IMPACTS: readonly string[] = ['critical', 'serious', 'moderate', 'minor'] satisfies AxeImpact[];

export interface AxeRule {
  /** axe-core's id: `image-alt` */
  id: string;
  /** the requirement, in axe-core's words: "Images must have alternative text" */
  help: string;
  /** what the rule checks: "Ensure <img> elements have alternative text ..." */
  description: string;
  /** Deque's page on the rule, without axe-core's `?application=axeAPI` */
  helpUrl: string;
  impact: AxeImpact;
  /** false for the rules axe-core runs only when asked (`target-size`): the lab run turns them on */
  enabledByDefault: boolean;
}

/** Only `impact` is read from the engine's own rule objects (getRules leaves it out). */
interface AuditRule {
  id: string;
  impact?: string | null;
}

// Loading axe-core in Node takes some 40 ms and 5 MB once per process (or worker thread).
const axe = createRequire(import.meta.url)('axe-core') as typeof AxeCore;

/** axe-core's own version, which names the rules' help pages (`.../rules/axe/4.14/...`). */
export const AXE_VERSION: string = axe.version;

export const AXE_RULES: readonly AxeRule[] = Object.freeze(readRules(axe));

/**
 * Throws when a rule has no impact: importance comes from it, and a rule without one (a newer
 * axe-core) must be seen when the package is upgraded rather than scored as a guess.
 */
function readRules(engine: typeof AxeCore): AxeRule[] {
  const auditRules = (engine as unknown as { _audit: { rules: AuditRule[] } })._audit.rules;
  const impacts = new Map(auditRules.map((rule) => [rule.id, rule.impact]));
  return engine
    .getRules([...AXE_TAGS])
    .filter((rule) => !rule.tags.some((tag) => LEFT_OUT_TAGS.includes(tag)))
    .map((rule) => {
      const impact = impacts.get(rule.ruleId);
      if (typeof impact !== 'string' || !IMPACTS.includes(impact)) {
        throw new Error(`axe-core ${engine.version}: the rule ${rule.ruleId} has no known impact (${String(impact)})`);
      }
      return {
        id: rule.ruleId,
        help: rule.help,
        description: rule.description,
        helpUrl: withoutQuery(rule.helpUrl),
        impact: impact as AxeImpact,
        enabledByDefault: rule.enabled,
      };
    });
}

function withoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
