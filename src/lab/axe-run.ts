// What runs axe-core in the page, and how its answer becomes an AccessibilityRun (docs/lab.md, "New
// category `accessibility`"). Pure: accessibility.ts puts it in the browser. The runner is plain
// JavaScript in a string, not a function of this file: a TypeScript loader may add helpers to a
// compiled function's text that the page does not have.
import type { AccessibilityRun, AxeRuleOutcome, AxeViolation } from './lab-types.ts';
import { AXE_RULES, AXE_TAGS } from './axe-rules.ts';

/**
 * How much of axe-core's answer comes back from the page: every bound of what it can send. At worst
 * (every rule violated on 25 elements, every string at its limit) some 2 MB for the 64 rules; a real
 * page's answer is a few kilobytes.
 */
export const ANSWER_LIMITS = {
  /** elements listed per violated rule (the count of them is kept) */
  items: 25,
  /** axe-core's selector of an element; those it makes are short, a page's ids and classes may not be */
  selectorChars: 500,
  /** the element's HTML as axe-core reports it */
  snippetChars: 200,
  /** axe-core's failure summary ("Fix any of the following: ...") */
  messageChars: 500,
  /** rule ids per list; axe-core runs about 70 rules for these tags */
  rules: 200,
} as const;

/**
 * axe.run's options: the WCAG A and AA tags, the rules of those tags axe-core leaves off by default
 * turned on, and only the violations' elements reported (the other lists keep one element a rule, and
 * only their ids are read). Frames are not entered: axe-core is in the top document only (an isolated
 * world of its frame), so a frame's own content is not judged. No preload: it fetches the page's
 * stylesheets again for a rule outside these tags.
 */
export const AXE_RUN_OPTIONS = Object.freeze({
  runOnly: { type: 'tag', values: [...AXE_TAGS] },
  rules: Object.fromEntries(AXE_RULES.filter((rule) => !rule.enabledByDefault).map((rule) => [rule.id, { enabled: true }])),
  resultTypes: ['violations'],
  iframes: false,
  preload: false,
  elementRef: false,
  selectors: true,
  ancestry: false,
  xpath: false,
  absolutePaths: false,
  performanceTimer: false,
});

/**
 * `async function (options, limits)`, run where `axe` and `document` are axe-core and the page's
 * document: axe.run, then only what the checks read, each string cut to its limit, so the answer's
 * size is bounded whatever the page holds. A target is a list of selectors, one a frame or shadow
 * root deep (lists within it for shadow roots); the steps are joined with ` >>> `.
 */
export const AXE_RUNNER_SOURCE = `async function (options, limits) {
  const cut = (text, max) => (typeof text === 'string' ? text.slice(0, max) : '');
  const step = (part) => (Array.isArray(part) ? part.map(String).join(' >>> ') : String(part));
  const selectorOf = (target) => (Array.isArray(target) ? target.map(step).join(' >>> ') : '');
  const ids = (rules) => rules.slice(0, limits.rules).map((rule) => String(rule.id));
  const results = await axe.run(document, options);
  return {
    violations: results.violations.slice(0, limits.rules).map((rule) => ({
      id: String(rule.id),
      nodes: rule.nodes.length,
      items: rule.nodes.slice(0, limits.items).map((node) => ({
        selector: cut(selectorOf(node.target), limits.selectorChars),
        snippet: cut(node.html, limits.snippetChars),
        message: cut(node.failureSummary, limits.messageChars),
      })),
    })),
    passes: ids(results.passes),
    incomplete: ids(results.incomplete),
    inapplicable: ids(results.inapplicable),
  };
}`;

const UNREADABLE: AccessibilityRun = { ok: false, reason: 'The accessibility engine gave an answer pagegrade could not read.' };

/**
 * The runner's answer as each catalogue rule's outcome, in catalogue order (rules axe-core did not
 * report are left out; the checks read them as inapplicable). A rule is in several of axe-core's lists
 * when its elements differ: violated on one element is a violation, else passed on one is passed,
 * else needing review is incomplete. Read as untrusted: every bound holds again here.
 */
export function toAccessibilityRun(answer: unknown, ruleIds: readonly string[] = AXE_RULES.map((rule) => rule.id)): AccessibilityRun {
  if (!isRecord(answer) || !Array.isArray(answer.violations)) return UNREADABLE;
  const known = new Set(ruleIds);
  const outcomes = new Map<string, AxeRuleOutcome>();
  // Weakest first: each later list overrides.
  for (const [list, outcome] of [['inapplicable', 'inapplicable'], ['incomplete', 'incomplete'], ['passes', 'passed']] as const) {
    for (const id of idsOf(answer[list])) if (known.has(id)) outcomes.set(id, { outcome });
  }
  for (const rule of answer.violations.slice(0, ANSWER_LIMITS.rules)) {
    if (!isRecord(rule) || typeof rule.id !== 'string' || !known.has(rule.id)) continue;
    const violations = (Array.isArray(rule.items) ? rule.items : []).slice(0, ANSWER_LIMITS.items).map(toViolation);
    const nodes = Number.isSafeInteger(rule.nodes) ? Math.max(rule.nodes as number, violations.length) : violations.length;
    outcomes.set(rule.id, { outcome: 'violation', nodes, violations });
  }
  const rules: Record<string, AxeRuleOutcome> = {};
  for (const id of ruleIds) {
    const outcome = outcomes.get(id);
    if (outcome) rules[id] = outcome;
  }
  return { ok: true, rules };
}

function toViolation(item: unknown): AxeViolation {
  const field = (key: string, max: number) => {
    const text = isRecord(item) ? item[key] : undefined;
    return typeof text === 'string' ? text.slice(0, max) : '';
  };
  return {
    selector: field('selector', ANSWER_LIMITS.selectorChars),
    snippet: field('snippet', ANSWER_LIMITS.snippetChars),
    message: field('message', ANSWER_LIMITS.messageChars),
  };
}

function idsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.slice(0, ANSWER_LIMITS.rules).filter((id): id is string => typeof id === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
