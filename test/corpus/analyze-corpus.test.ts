// All 264 real pages of the shared corpus go through parse, every check and the score without an
// exception, and the verdicts are plausible for what we know about the pages.
import { describe, expect, it } from 'vitest';
import { analyzePage } from '../../src/analysis/analyze-page.ts';
import { allChecks } from '../../src/checks/index.ts';
import { DEFAULT_THRESHOLDS } from '../../src/checks/thresholds.ts';
import type { Analysis } from '../../src/analysis/types.ts';
import { corpusFetchedPage, corpusOriginFacts, loadCorpus } from '../support/corpus.ts';
import { valueSchemaMismatches } from '../support/value-schemas.ts';

const corpus = loadCorpus();
const failures: string[] = [];
const analyses = new Map<string, Analysis>();
for (const page of corpus) {
  analyses.set(
    page.file,
    analyzePage(corpusFetchedPage(page), corpusOriginFacts(page), DEFAULT_THRESHOLDS, (id, error) =>
      failures.push(`${page.file}: ${id}: ${String(error)}`),
    ),
  );
}

describe('the corpus through the whole engine', () => {
  it('has all 264 pages', () => {
    expect(corpus).toHaveLength(264);
  });

  it('runs every check on every page without an internal error', () => {
    expect(failures).toEqual([]);
    const ids = allChecks.map((check) => check.id);
    for (const [file, analysis] of analyses) {
      expect(Object.keys(analysis.results), file).toEqual(ids);
      expect(analysis.score).toBeGreaterThanOrEqual(0);
      expect(analysis.score).toBeLessThanOrEqual(100);
    }
  });

  it('gives every check a value that matches its schema (the one the OpenAPI document shows)', () => {
    const mismatches = [...analyses].flatMap(([file, analysis]) => valueSchemaMismatches(analysis, `${file}: `));
    expect(mismatches).toEqual([]);
  });

  it('reads a title on nearly every page', () => {
    const withTitle = [...analyses.values()].filter((analysis) => {
      const value = analysis.results.title.value as { title?: string } | null;
      return typeof value?.title === 'string' && value.title.length > 0;
    });
    // A handful of fixtures genuinely have no <title>; measured 257 of 264 at the time of writing.
    expect(withTitle.length).toBeGreaterThanOrEqual(250);
  });

  it('sees no meta description where the fixture renamed content= to value=', () => {
    const renamed = corpus.filter((page) => page.html.includes('<meta') && /<meta[^>]*name="description"[^>]*value=/i.test(page.html));
    expect(renamed.length).toBeGreaterThan(10);
    for (const page of renamed) {
      expect(analyses.get(page.file)!.results.meta_description.passed, page.file).toBe(false);
    }
  });

  it('spreads real pages over the score range', () => {
    // With friendly synthesised fetch facts the corpus measured 57..94 (50 good, 214 decent).
    const scores = [...analyses.values()].map((analysis) => analysis.score);
    expect(Math.min(...scores)).toBeLessThan(65);
    expect(Math.max(...scores)).toBeGreaterThan(85);
    const verdicts = new Set([...analyses.values()].map((analysis) => analysis.result));
    expect(verdicts.has('good') && verdicts.has('decent')).toBe(true);
  });
});
