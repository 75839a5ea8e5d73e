// The structured-data extraction over the 264 real pages of ../shared/corpus, decoded in pieces as
// the analysis threads decode them: none may throw, and the counts are those the pages hold (they agree
// with a search of the files for ld+json scripts, itemscope and typeof; measured when this was written).
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageSnapshot } from '../../src/parse/page-snapshot.ts';
import { parsePage } from '../../src/parse/parse-page.ts';
import { readJson } from '../../src/structured/json-reader.ts';
import { judgeStructuredData } from '../../src/structured/judge.ts';
import type { StructuredFormat } from '../../src/structured/structured-types.ts';
import { corpusFetchedPage, loadCorpus } from '../support/corpus.ts';

interface Parsed {
  file: string;
  html: string;
  snapshot: PageSnapshot;
}

let pages: Parsed[] = [];

beforeAll(() => {
  pages = loadCorpus().map((page) => {
    const fetched = corpusFetchedPage(page);
    return { file: page.file, html: fetched.html.toString(), snapshot: parsePage(fetched.html, fetched.finalUrl) };
  });
});

const count = (predicate: (page: Parsed) => boolean) => pages.filter(predicate).length;
const itemsOf = (format: StructuredFormat) => pages.reduce((sum, { snapshot }) => sum + snapshot.structured.items.filter((item) => item.format === format).length, 0);

describe('structured-data extraction over the corpus', () => {
  it('finds structured data on 100 pages: 26 with JSON-LD, 74 with microdata, 7 with RDFa', () => {
    expect(pages).toHaveLength(264);
    expect(count(({ snapshot }) => snapshot.structured.present)).toBe(100);
    expect(count(({ snapshot }) => snapshot.structured.formats.includes('json-ld'))).toBe(26);
    expect(count(({ snapshot }) => snapshot.structured.formats.includes('microdata'))).toBe(74);
    expect(count(({ snapshot }) => snapshot.structured.formats.includes('rdfa'))).toBe(7);
    for (const { file, snapshot } of pages) expect(snapshot.structured.present, file).toBe(snapshot.structured.formats.length > 0);
  });

  it('finds 204 microdata items, 25 RDFa items and 8 JSON-LD items', () => {
    expect(itemsOf('microdata')).toBe(204);
    expect(itemsOf('rdfa')).toBe(25);
    expect(itemsOf('json-ld')).toBe(8);
  });

  it('reports the 27 JSON-LD blocks of 35 that are not JSON, the CDATA-wrapped ones with the hint', () => {
    const blocks = pages.flatMap(({ snapshot }) => snapshot.jsonLd);
    expect(blocks).toHaveLength(35);
    const problems = pages.flatMap(({ snapshot }) => snapshot.structured.problems);
    const invalid = problems.filter((problem) => problem.kind === 'invalid_json');
    expect(problems).toHaveLength(invalid.length);
    expect(invalid).toHaveLength(27);
    expect(invalid.filter((problem) => problem.message.startsWith('wrapped in <![CDATA[ ]]>, which is not JSON'))).toHaveLength(26);
    // the reader refuses exactly the blocks JSON.parse refuses
    for (const block of blocks) {
      let parses = true;
      try {
        JSON.parse(block.raw);
      } catch {
        parses = false;
      }
      expect(readJson(block.raw).ok, block.raw.slice(0, 80)).toBe(parses);
    }
  });

  it("puts every JSON-LD item on a line with its '{' and every invalid block on the line of its <script> tag", () => {
    for (const { file, html, snapshot } of pages) {
      const lines = html.split('\n');
      for (const item of snapshot.structured.items) {
        expect(item.line, file).toBeGreaterThanOrEqual(1);
        expect(item.line, file).toBeLessThanOrEqual(lines.length);
        if (item.format === 'json-ld') expect(lines[item.line - 1], file).toContain('{');
      }
      for (const problem of snapshot.structured.problems) expect(lines[problem.line - 1].toLowerCase(), file).toContain('<script');
    }
  });

  it('judges them without a throw: 79 pages carry items, 57 of a Google feature, 49 eligible for at least one rich result', () => {
    const judged = pages.map(({ snapshot }) => judgeStructuredData(snapshot));
    const current = judged.map(({ richResults }) => richResults.filter((entry) => entry.retired === null));
    expect(judged.filter(({ extraction }) => extraction.items.length > 0)).toHaveLength(79);
    expect(current.filter((entries) => entries.length > 0)).toHaveLength(57);
    expect(current.filter((entries) => entries.some((entry) => entry.valid === true))).toHaveLength(49);
    expect(current.filter((entries) => entries.some((entry) => entry.valid === false))).toHaveLength(17);
  });
});
