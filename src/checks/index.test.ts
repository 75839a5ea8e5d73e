// The registry as a whole: exactly the checks docs/checks.md documents (id, category, importance,
// order; weights by importance), one file per check named after its id, documented for people, and
// docs/checks.md what `npm run docs:checks` makes from the registry now.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allChecks } from './index.ts';
import { siteChecks } from '../crawl/site-checks/index.ts';
import { renderCheckDocs } from './check-docs.ts';
import { WEIGHTS } from '../scoring/score.ts';

interface DocumentedCheck {
  id: string;
  category: string;
  importance: string;
}

const CATEGORY_SECTIONS: Record<string, string> = {
  SEO: 'seo', Performance: 'performance', Security: 'security', Miscellaneous: 'miscellaneous', Accessibility: 'accessibility',
};

/**
 * The accessibility checks are made from axe-core's rules in one module (accessibility/index.ts, tested
 * beside it), and docs/checks.md lists them as rows of one table; their title is the rule's requirement
 * whether they pass or fail (docs/lab.md).
 */
const RULE_CATEGORY = 'accessibility';
const ruleChecks = allChecks.filter((check) => check.category === RULE_CATEGORY);
const ownFileChecks = allChecks.filter((check) => check.category !== RULE_CATEGORY);

function checksDoc(): string {
  return readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');
}

/**
 * Every check docs/checks.md documents (`### \`id\` (importance)`, or a table row `| \`id\` | importance |`), with the
 * category of the section it stands in.
 */
function documentedChecks(): DocumentedCheck[] {
  const checks: DocumentedCheck[] = [];
  let category: string | undefined;
  for (const line of checksDoc().split('\n')) {
    const section = /^## (.+)$/.exec(line);
    if (section) category = CATEGORY_SECTIONS[section[1]];
    const entry = /^### `([a-z0-9_]+)` \((high|medium|low)\)$/.exec(line) ?? /^\| `([a-z0-9_]+)` \| (high|medium|low) \|/.exec(line);
    if (entry && category) checks.push({ id: entry[1], category, importance: entry[2] });
  }
  return checks;
}

const fileBase = (id: string) => id.replace(/_/g, '-');

describe('check registry', () => {
  it('holds exactly the checks of docs/checks.md, each once, in its order, with category and importance', () => {
    const documented = documentedChecks();
    expect(documented.length).toBeGreaterThan(40);
    expect(allChecks.map(({ id, category, importance }) => ({ id, category, importance }))).toEqual(documented);
    expect(new Set(allChecks.map((check) => check.id)).size).toBe(allChecks.length);
  });

  it('weighs each importance as docs/checks.md says', () => {
    const points = /^- Weight by importance: high (\d+), medium (\d+), low (\d+)\.$/m.exec(checksDoc());
    expect(points, 'the weight line of docs/checks.md').not.toBeNull();
    expect(WEIGHTS).toEqual({ high: Number(points![1]), medium: Number(points![2]), low: Number(points![3]) });
  });

  it.each(ownFileChecks.map((check) => [check.id, check] as const))('%s lives in its own file with a test beside it', async (id, check) => {
    const file = new URL(`./${check.category}/${fileBase(id)}.ts`, import.meta.url);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(new URL(`./${check.category}/${fileBase(id)}.test.ts`, import.meta.url))).toBe(true);
    const module: Record<string, unknown> = await import(file.href);
    expect(Object.values(module)).toContain(check);
  });

  it('documents every check for people', () => {
    for (const check of allChecks) {
      for (const field of ['title', 'failureTitle', 'description', 'howToFix'] as const) {
        expect(check[field].trim().length, `${check.id}.${field}`).toBeGreaterThan(10);
      }
      if (check.category !== RULE_CATEGORY) expect(check.title, check.id).not.toBe(check.failureTitle);
    }
  });

  it('makes the accessibility checks in one module with a test beside it, each linking its rule\'s page', async () => {
    expect(ruleChecks.length).toBeGreaterThan(50);
    expect(existsSync(new URL(`./${RULE_CATEGORY}/index.test.ts`, import.meta.url))).toBe(true);
    const module: Record<string, unknown> = await import(new URL(`./${RULE_CATEGORY}/index.ts`, import.meta.url).href);
    expect(Object.values(module)).toContainEqual(ruleChecks);
    for (const check of ruleChecks) expect(check.learnMoreUrl, check.id).toMatch(/^https:\/\//);
  });

  it('documents where pagegrade deliberately differs from Lighthouse', () => {
    const docs = renderCheckDocs(allChecks, siteChecks, WEIGHTS);
    const section = docs.slice(docs.indexOf('## Where pagegrade deliberately differs from Lighthouse'));
    expect(section.length).toBeGreaterThan(100);
    const note = (id: string) => allChecks.find((check) => check.id === id)?.differsFromLighthouse ?? '';
    expect(note('crawlable_anchors')).toMatch(/href=""[\s\S]*javascript:/);
    expect(note('title')).toMatch(/head as the HTML parser ends it/);
    expect(note('link_text')).toMatch(/longer list in more languages[\s\S]*punctuation, symbols and arrows/);
    for (const id of ['crawlable_anchors', 'title', 'link_text']) expect(section).toContain(`\`${id}\`: ${note(id)}`);
  });

  it('keeps docs/checks.md in step with the registry (npm run docs:checks)', () => {
    expect(checksDoc(), 'docs/checks.md is out of date with the registry: run `npm run docs:checks`').toBe(renderCheckDocs(allChecks, siteChecks, WEIGHTS));
  });
});
