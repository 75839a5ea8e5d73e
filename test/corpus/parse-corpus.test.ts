// parsePage over the 264 real pages of ../shared/corpus (see its README): none may throw, and the
// snapshots must agree with what the manifest and the upstream metadata say about each page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageSnapshot } from '../../src/parse/page-snapshot.ts';
import { parsePage } from '../../src/parse/parse-page.ts';
import { PageText } from '../../src/fetch/page-text.ts';

interface ManifestEntry {
  file: string;
  source_repo: string;
  site: string | null;
  original_url: string | null;
  title: string | null;
  declared_charset: string | null;
  charset_declared_via: string | null;
  metadata_file: string | null;
  meta_tags_use_value_attr: boolean;
}

interface ParsedPage {
  entry: ManifestEntry;
  html: string;
  snapshot: PageSnapshot;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpusDir = path.resolve(repoRoot, '../shared/corpus');
const manifest: ManifestEntry[] = JSON.parse(readFileSync(path.join(corpusDir, 'manifest.json'), 'utf8'));

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

let pages: ParsedPage[] = [];

beforeAll(() => {
  pages = manifest.map((entry) => {
    const html = readFileSync(path.join(corpusDir, entry.file), 'utf8');
    return { entry, html, snapshot: parsePage(PageText.of(html), entry.original_url ?? 'https://example.com/') };
  });
});

describe('parsePage over the corpus', () => {
  it('parses all 264 pages, each with elements and real text', () => {
    expect(pages).toHaveLength(264);
    for (const { entry, snapshot } of pages) {
      expect(snapshot.elementCount, entry.file).toBeGreaterThan(0);
      // every page is an article or a news page; the shortest has 246 words
      expect(snapshot.text.wordCount, entry.file).toBeGreaterThan(100);
      expect(snapshot.htmlLength, entry.file).toBeGreaterThan(snapshot.text.charCount);
    }
  });

  it('finds no doctype exactly where the bytes have none', () => {
    const withoutDoctype = pages.filter(({ html }) => !/<!doctype/i.test(html));
    expect(withoutDoctype).toHaveLength(15);
    for (const { entry, html, snapshot } of pages) {
      expect(snapshot.doctype.raw === null, entry.file).toBe(!/<!doctype/i.test(html));
    }
  });

  it('finds the expected title in the head title of most Readability pages', () => {
    // Measured: 80 of 93. The rest are titles Readability rewrote, or pages whose saved DOM has an
    // <iframe> or <div> in the head before the <title>, which (as in browsers) ends the head.
    const readability = pages.filter(({ entry }) => entry.source_repo === 'mozilla/readability');
    expect(readability).toHaveLength(93);
    const matching = readability.filter(({ entry, snapshot }) =>
      snapshot.titles.some((title) => normalise(title).includes(normalise(entry.title ?? ''))),
    );
    expect(matching.length).toBeGreaterThanOrEqual(78);
  });

  it('reads <html lang> as Readability does', () => {
    let compared = 0;
    for (const { entry, snapshot } of pages) {
      if (entry.metadata_file === null) continue;
      const metadata = JSON.parse(readFileSync(path.join(corpusDir, entry.metadata_file), 'utf8')) as { lang?: string | null };
      if (!metadata.lang) continue; // some metadata files have no lang
      compared++;
      expect(snapshot.htmlLang?.toLowerCase(), entry.file).toBe(metadata.lang.toLowerCase());
    }
    expect(compared).toBe(70);
  });

  it('gives null content to the meta tags of pages rewritten to value=', () => {
    const flagged = pages.filter(({ entry }) => entry.meta_tags_use_value_attr);
    expect(flagged).toHaveLength(148);
    for (const { entry, snapshot } of flagged) {
      const named = snapshot.metas.filter((meta) => meta.name !== null || meta.property !== null);
      const withoutContent = named.filter((meta) => meta.content === null);
      expect(withoutContent.length * 2, entry.file).toBeGreaterThan(named.length);
    }
  });

  it('finds the declared <meta charset> of every page that has one', () => {
    const declaring = pages.filter(({ entry }) => entry.charset_declared_via === 'meta charset');
    expect(declaring).toHaveLength(184);
    for (const { entry, snapshot } of declaring) {
      const charsets = snapshot.metas.map((meta) => meta.charset?.toLowerCase());
      expect(charsets, entry.file).toContain(entry.declared_charset?.toLowerCase());
    }
  });

  it('counts Japanese text by character, so Japanese pages have far more words per character than English ones', () => {
    const japanese = pages.filter(({ entry }) => entry.site?.endsWith('.jp'));
    expect(japanese.length).toBeGreaterThanOrEqual(20);
    for (const { entry, snapshot } of japanese) {
      expect(snapshot.text.wordCount / snapshot.text.charCount, entry.file).toBeGreaterThan(0.25);
    }
    const english = pages.filter(({ entry, snapshot }) => entry.source_repo === 'mozilla/readability' && snapshot.htmlLang?.startsWith('en'));
    expect(median(english.map(({ snapshot }) => snapshot.text.wordCount / snapshot.text.charCount))).toBeLessThan(0.2);
  });
});
