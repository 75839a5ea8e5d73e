// The site check registry as a whole: exactly the site checks docs/checks.md documents (id,
// importance, order), one file per check named after its id with a test beside it, documented for
// people, and run so that one throwing check never costs a crawl the others. (That docs/checks.md is
// what the registry makes now is checked in ../index.test.ts.)
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { canonicalTargets } from './canonical-targets.ts';
import { runSiteChecks, siteChecks } from './index.ts';
import type { SiteCheckDefinition } from './site-check.ts';
import { answering, siteOf } from './site-fixture.ts';
import { sitemapEntries } from './sitemap-entries.ts';

/** The entries (`### \`id\` (importance)`) of the "Site checks" section of docs/checks.md. */
function documentedSiteChecks(): { id: string; importance: string }[] {
  const text = readFileSync(new URL('../../../docs/checks.md', import.meta.url), 'utf8');
  const start = text.indexOf('\n## Site checks\n');
  expect(start, 'a "Site checks" section in docs/checks.md').toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^### `([a-z0-9_]+)` \((high|medium|low)\)$/gm)].map((entry) => ({ id: entry[1], importance: entry[2] }));
}

const fileBase = (id: string) => id.replace(/_/g, '-');

describe('site check registry', () => {
  it('holds exactly the site checks of docs/checks.md, each once, in its order, with their importance', () => {
    const rows = documentedSiteChecks();
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(siteChecks.map(({ id, importance }) => ({ id, importance }))).toEqual(rows);
    expect(new Set(siteChecks.map((check) => check.id)).size).toBe(siteChecks.length);
    for (const check of siteChecks) expect(check.category).toBe('site');
  });

  it.each(siteChecks.map((check) => [check.id, check] as const))('%s lives in its own file with a test beside it', async (id, check) => {
    const file = new URL(`./${fileBase(id)}.ts`, import.meta.url);
    expect(existsSync(new URL(`./${fileBase(id)}.test.ts`, import.meta.url))).toBe(true);
    const module: Record<string, unknown> = await import(file.href);
    expect(Object.values(module)).toContain(check);
  });

  it('documents every site check for people', () => {
    for (const check of siteChecks) {
      for (const field of ['title', 'failureTitle', 'description', 'howToFix'] as const) {
        expect(check[field].trim().length, `${check.id}.${field}`).toBeGreaterThan(10);
      }
      expect(check.title, check.id).not.toBe(check.failureTitle);
    }
  });
});

forEachDialect('runSiteChecks', (database) => {
  it('gives every site check its importance, count and items', async () => {
    const site = await siteOf(database().db, { '/': { links: ['/a'] }, '/a': { title: 'Same' }, '/b': { title: 'Same' } });
    const results = await runSiteChecks(site);
    expect(Object.keys(results)).toEqual(siteChecks.map((check) => check.id));
    expect(results.broken_links).toEqual({ importance: 'high', count: 0, items: [] });
    expect(results.duplicate_titles).toMatchObject({ importance: 'medium', count: 1 });
  });

  it('records a check that throws as finding nothing, with an error, logs it, and runs the others', async () => {
    const site = await siteOf(database().db, { '/': { inSitemap: true, canonical: '/', links: ['/gone'] }, '/gone': answering(404) });
    const throwing = (check: SiteCheckDefinition): SiteCheckDefinition => ({ ...check, run: async () => { throw new Error('the database went away'); } });
    const checks = siteChecks.map((check) => (check === canonicalTargets || check === sitemapEntries ? throwing(check) : check));
    const logged: string[] = [];
    const results = await runSiteChecks(site, (checkId) => logged.push(checkId), checks);
    expect(logged).toEqual(['canonical_targets', 'sitemap_entries']);
    expect(results.canonical_targets).toEqual({ importance: 'high', count: 0, items: [], error: 'internal error' });
    expect(results.sitemap_entries).toEqual({ importance: 'medium', count: 0, items: [], error: 'internal error' });
    expect(results.broken_links).toMatchObject({ count: 1 });
    expect(results.broken_links.error).toBeUndefined();
  });
});
