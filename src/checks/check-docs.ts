// Renders docs/checks.md from the registry, so the documentation can never drift from the checks.
// The weights come from the caller: scoring builds on checks, so checks never import it.
import type { CheckDefinition, Category, Importance } from './check.ts';
import type { SiteCheckDefinition } from '../crawl/site-checks/site-check.ts';
import { AXE_VERSION } from '../lab/axe-rules.ts';

const CATEGORY_TITLES: Record<Category, string> = {
  seo: 'SEO',
  performance: 'Performance',
  security: 'Security',
  miscellaneous: 'Miscellaneous',
  accessibility: 'Accessibility',
};

/**
 * Categories documented as one table, a row a check, after an introduction that says what their checks
 * share: the accessibility checks are axe-core's rules, many and alike, and Deque's page on each rule
 * (linked from its row) says the rest.
 */
const TABLE_CATEGORIES: Partial<Record<Category, string[]>> = {
  accessibility: [
    `With a lab audit (\`lab=1\`, \`analyze --lab\`), axe-core ${AXE_VERSION} judges the page as loaded in the browser against each of`,
    'its rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA (experimental and deprecated rules left out, rules off by default such as',
    '`target-size` turned on). Each rule is a check: its id is `a11y_` and the rule\'s id with `-` as `_` (`image-alt` is `a11y_image_alt`).',
    '',
    '- Fails when axe-core finds an element that violates the rule: `value.nodes` counts them, `errors.violations` lists up to 25, each',
    '  with a selector, its HTML (at most 200 characters) and axe-core\'s summary of what is wrong.',
    '- Passes when the rule holds on at least one element (`value.nodes` is 0).',
    '- Does not apply without a lab audit, when no element of the page is one the rule judges, or when axe-core could only mark the rule',
    '  as needing review by a person. So a report without a lab audit scores exactly as it would without these checks.',
    '- Importance follows the rule\'s impact: critical and serious are high, moderate medium, minor low.',
    '- The title is axe-core\'s wording of the requirement, shown whether the check passed or failed; it links Deque\'s page on the',
    '  rule, which says how to fix each kind of violation. The last column is what the rule checks, in axe-core\'s words.',
  ],
};

export function renderCheckDocs(
  checks: readonly CheckDefinition[],
  siteChecks: readonly SiteCheckDefinition[],
  weights: Readonly<Record<Importance, number>>,
): string {
  const lines = [
    '# The checks of a pagegrade report',
    '',
    '<!-- Generated from src/checks by `npm run docs:checks`; do not edit by hand. -->',
    '',
    `Every report runs these ${checks.length} checks, each under its id in the report's \`results\`. A check passes, fails,`,
    'or does not apply (`passed: null`, with a reason). Numeric limits are defaults an operator can change with',
    '`PAGEGRADE_THRESHOLDS` (keys in src/checks/thresholds.ts).',
    '',
    ...scoreSection(weights),
  ];
  for (const category of Object.keys(CATEGORY_TITLES) as Category[]) {
    const inCategory = checks.filter((check) => check.category === category);
    lines.push(`## ${CATEGORY_TITLES[category]}`, '');
    const introduction = TABLE_CATEGORIES[category];
    if (introduction) {
      lines.push(...introduction, '', ...checkTable(inCategory), '');
      continue;
    }
    for (const check of inCategory) {
      lines.push(...checkEntry(check), ...(check.differsFromLighthouse ? [`- Unlike Lighthouse: ${check.differsFromLighthouse}`] : []), '');
      if (check.docsNote) lines.push(check.docsNote, '');
    }
  }
  lines.push(...siteSection(siteChecks, weights));
  lines.push(...lighthouseSection(checks));
  return lines.join('\n');
}

/**
 * How results become a score and a verdict (scoring/score.ts). The weights come from the caller; the
 * rules are written here, and src/scoring/score-docs.test.ts holds the scoring code to what they say.
 */
function scoreSection(weights: Readonly<Record<Importance, number>>): string[] {
  return [
    '## Score and verdict',
    '',
    `- Weight by importance: high ${weights.high}, medium ${weights.medium}, low ${weights.low}.`,
    '- The score is `round(100 * weight of passed checks / weight of applicable checks)`, 0-100: a check that does',
    '  not apply counts on neither side.',
    '- The verdict (`result`): `good` from a score of 80, `decent` from 50, `bad` below.',
    '- A page search engines cannot index (`noindex` or `robots` failed) is at most `decent`.',
    '- A page whose final status is an error (`http_status` failed: 4xx or 5xx) is `bad` whatever it scores.',
    '- A category\'s score (SEO, Performance, Security, Miscellaneous, Accessibility) is the same fraction over that category\'s',
    '  checks alone; it has none when none of them applies.',
    '',
  ];
}

/** The checks a crawl runs over the whole site: they rank its issues and never enter a page's score. */
function siteSection(siteChecks: readonly SiteCheckDefinition[], weights: Readonly<Record<Importance, number>>): string[] {
  if (siteChecks.length === 0) return [];
  return [
    '## Site checks',
    '',
    `A crawl runs these ${siteChecks.length} checks over the whole site once every page is in. Each counts what it finds and`,
    `lists the pages involved. Their weights (high ${weights.high}, medium ${weights.medium}, low ${weights.low}) rank them in the crawl's report;`,
    'they do not enter page scores. A crawl\'s score is the mean of its pages\' scores, rounded, and its verdict follows',
    'the verdict rule above, but a crawl is at most `decent` while a high-importance site check finds anything.',
    '',
    ...siteChecks.flatMap((check) => [...checkEntry(check), '']),
  ];
}

/** What a check or site check is called and says, as people read it. */
function checkEntry(check: CheckDefinition | SiteCheckDefinition): string[] {
  return [
    `### \`${check.id}\` (${check.importance})`,
    '',
    `- Passes: ${check.title}`,
    `- Fails: ${check.failureTitle}`,
    `- Why it matters: ${check.description}`,
    `- How to fix: ${check.howToFix}`,
  ];
}

/** A row a check: id, importance, the requirement (linking its page), what it checks. */
function checkTable(checks: readonly CheckDefinition[]): string[] {
  return [
    '| check | importance | requirement | what is checked |',
    '| --- | --- | --- | --- |',
    ...checks.map((check) => {
      const requirement = check.learnMoreUrl ? `[${inTable(check.title)}](${check.learnMoreUrl})` : inTable(check.title);
      return `| \`${check.id}\` | ${check.importance} | ${requirement} | ${inTable(check.description)} |`;
    }),
  ];
}

/** Text as it reads in a Markdown table cell: tags and entities shown, not taken as HTML; no cell ends early. */
function inTable(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[|[\]\\]/g, (character) => `\\${character}`)
    .replace(/\s+/g, ' ');
}

/** The deliberate differences from Lighthouse, gathered, so someone comparing the two tools finds them at once. */
function lighthouseSection(checks: readonly CheckDefinition[]): string[] {
  const differing = checks.filter((check) => check.differsFromLighthouse);
  if (differing.length === 0) return [];
  return [
    '## Where pagegrade deliberately differs from Lighthouse',
    '',
    'Lighthouse judges the rendered page in a browser; pagegrade judges the HTML as served, as a search engine first reads it.',
    'Where the two disagree on purpose (each also noted under its check above):',
    '',
    ...differing.map((check) => `- \`${check.id}\`: ${check.differsFromLighthouse}`),
    '',
  ];
}
