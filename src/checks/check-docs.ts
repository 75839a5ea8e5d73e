// Renders docs/checks.md from the registry, so the documentation can never drift from the checks.
// The weights come from the caller: scoring builds on checks, so checks never import it.
import type { CheckDefinition, Category, Importance } from './check.ts';
import type { SiteCheckDefinition } from '../crawl/site-checks/site-check.ts';

const CATEGORY_TITLES: Record<Category, string> = {
  seo: 'SEO',
  performance: 'Performance',
  security: 'Security',
  miscellaneous: 'Miscellaneous',
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
    '- A category\'s score (SEO, Performance, Security, Miscellaneous) is the same fraction over that category\'s',
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
