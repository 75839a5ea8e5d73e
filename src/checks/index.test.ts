// The registry as a whole: exactly the checks of CHECKS.md (id, category, importance, table order),
// one file per check named after its id, documented for people, and the generated docs current.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allChecks } from './index.ts';
import { renderCheckDocs } from './check-docs.ts';
import { POINTS } from '../scoring/score.ts';

interface TableRow {
  id: string;
  category: string;
  importance: string;
}

/** Every check row of CHECKS.md, with the category of the section it stands in. */
function checksMdRows(): TableRow[] {
  const text = readFileSync(new URL('../../../shared/CHECKS.md', import.meta.url), 'utf8');
  const rows: TableRow[] = [];
  let category = '';
  for (const line of text.split('\n')) {
    const heading = /^## (SEO|Performance|Security|Miscellaneous)$/.exec(line);
    if (heading) category = heading[1].toLowerCase();
    const row = /^\| `([a-z0-9_]+)` \| (high|medium|low) \|/.exec(line);
    if (row) rows.push({ id: row[1], category, importance: row[2] });
  }
  return rows;
}

const fileBase = (id: string) => id.replace(/_/g, '-');

describe('check registry', () => {
  it('holds exactly the checks of CHECKS.md, each once, in table order, with category and importance', () => {
    const rows = checksMdRows();
    expect(rows.length).toBeGreaterThan(40);
    expect(allChecks.map(({ id, category, importance }) => ({ id, category, importance }))).toEqual(rows);
    expect(new Set(allChecks.map((check) => check.id)).size).toBe(allChecks.length);
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

  it('keeps docs/checks.md in step with the registry (npm run docs:checks)', () => {
    const committed = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderCheckDocs(allChecks, POINTS));
  });
});
