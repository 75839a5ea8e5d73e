// The registry as a whole: exactly the checks of CHECKS.md (id, category, importance, table order),
// one file per check named after its id, documented for people, and the generated docs current.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allChecks } from './index.ts';
import { siteChecks } from './site/index.ts';
import { renderCheckDocs } from './check-docs.ts';
import { POINTS } from '../scoring/score.ts';

interface TableRow {
  id: string;
  category: string;
  importance: string;
}

/** Every check row of CHECKS.md's category tables, with the category of the section it stands in. */
function checksMdRows(): TableRow[] {
  const rows: TableRow[] = [];
  let category = '';
  for (const line of checksMd().split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) category = ['SEO', 'Performance', 'Security', 'Miscellaneous'].includes(heading[1]) ? heading[1].toLowerCase() : '';
    const row = /^\| `([a-z0-9_]+)` \| (high|medium|low) \|/.exec(line);
    if (row && category !== '') rows.push({ id: row[1], category, importance: row[2] });
  }
  return rows;
}

/** The rows of CHECKS.md's "New checks" table, whose second column is the category. */
function newCheckRows(): TableRow[] {
  const text = checksMd();
  const table = text.slice(text.indexOf('## New checks'), text.indexOf('\n## ', text.indexOf('## New checks') + 1));
  return [...table.matchAll(/^\| `([a-z0-9_]+)` \| (seo|performance|security|miscellaneous) \| (high|medium|low) \|/gm)].map((row) => ({
    id: row[1],
    category: row[2],
    importance: row[3],
  }));
}

function checksMd(): string {
  return readFileSync(new URL('../../../shared/CHECKS.md', import.meta.url), 'utf8');
}

/** The registry's order: category by category, each category's table rows, then its new checks that are built. */
function expectedRegistry(built: ReadonlySet<string>): TableRow[] {
  const rows = checksMdRows();
  const added = newCheckRows().filter((row) => built.has(row.id));
  return ['seo', 'performance', 'security', 'miscellaneous'].flatMap((category) => [
    ...rows.filter((row) => row.category === category),
    ...added.filter((row) => row.category === category),
  ]);
}

const fileBase = (id: string) => id.replace(/_/g, '-');

describe('check registry', () => {
  it('holds exactly the checks of CHECKS.md, each once, in table order, with category and importance', () => {
    const built = new Set(allChecks.map((check) => check.id));
    expect(checksMdRows().length).toBeGreaterThan(40);
    expect(allChecks.map(({ id, category, importance }) => ({ id, category, importance }))).toEqual(expectedRegistry(built));
    expect(built.size).toBe(allChecks.length);
  });

  it('registers the new checks that are built with the category and importance of their table', () => {
    const newRows = newCheckRows();
    const built = ['ai_crawlers', 'llms_txt', 'javascript_dependency'];
    expect(newRows.map((row) => row.id)).toEqual(expect.arrayContaining(built));
    for (const id of built) {
      const check = allChecks.find((candidate) => candidate.id === id);
      expect(check, id).toBeDefined();
      expect({ id, category: check!.category, importance: check!.importance }).toEqual(newRows.find((row) => row.id === id));
    }
  });

  it.each(allChecks.map((check) => [check.id, check] as const))('%s lives in its own file with a test beside it', async (id, check) => {
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
      expect(check.title, check.id).not.toBe(check.failureTitle);
    }
  });

  it('documents where pagegrade deliberately differs from Lighthouse', () => {
    const docs = renderCheckDocs(allChecks, siteChecks, POINTS);
    const section = docs.slice(docs.indexOf('## Where pagegrade deliberately differs from Lighthouse'));
    expect(section.length).toBeGreaterThan(100);
    const note = (id: string) => allChecks.find((check) => check.id === id)?.differsFromLighthouse ?? '';
    expect(note('crawlable_anchors')).toMatch(/href=""[\s\S]*javascript:/);
    expect(note('title')).toMatch(/head as the HTML parser ends it/);
    expect(note('link_text')).toMatch(/longer list in more languages[\s\S]*punctuation, symbols and arrows/);
    for (const id of ['crawlable_anchors', 'title', 'link_text']) expect(section).toContain(`\`${id}\`: ${note(id)}`);
  });

  it('keeps docs/checks.md in step with the registry (npm run docs:checks)', () => {
    const committed = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderCheckDocs(allChecks, siteChecks, POINTS));
  });
});
