// Legacy-encoded pages through the whole pipeline: the body is decoded by its byte order mark, else
// the charset of the Content-Type header, else a meta tag in the first 1024 bytes, else a guess
// (UTF-8 if the bytes are valid UTF-8, windows-1252 otherwise); the charset check passes only when
// one was declared in time.
import iconv from 'iconv-lite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, respond, startGoldenSite, type GoldenSite, type Handler } from './support/golden-site.ts';

const FRENCH_TITLE = 'Crème brûlée – the café’s recipe';
const JAPANESE_TITLE = '日本のコーヒー豆の選び方ガイド';
/** Pushes a meta tag past the 1024 bytes browsers prescan. */
const FILLER = `<!-- ${'x'.repeat(1100)} -->`;

function page(title: string, headStart: string, headEnd = ''): string {
  return `<!DOCTYPE html>\n<html><head>${headStart}<title>${title}</title>${headEnd}</head>\n<body><h1>${title}</h1><p>${title}</p></body></html>`;
}

interface Case {
  name: string;
  /** The page text, before encoding. */
  html: string;
  encoding: 'windows-1252' | 'shift_jis' | 'utf-8';
  contentType: string;
  /** Expected: the title as the pipeline reads it, the charset used, and the charset check. */
  title: string;
  charset: string;
  passed: boolean;
  source: string | null;
}

const CASES: Case[] = [
  {
    name: 'windows-1252, charset only in the header',
    html: page(FRENCH_TITLE, ''),
    encoding: 'windows-1252',
    contentType: 'text/html; charset=windows-1252',
    title: FRENCH_TITLE,
    charset: 'windows-1252',
    passed: true,
    source: 'header',
  },
  {
    name: 'windows-1252, charset only in a meta tag',
    html: page(FRENCH_TITLE, '<meta charset="windows-1252">'),
    encoding: 'windows-1252',
    contentType: 'text/html',
    title: FRENCH_TITLE,
    charset: 'windows-1252',
    passed: true,
    source: 'meta',
  },
  {
    // Not valid UTF-8, so the guess is windows-1252, which happens to be right; still undeclared.
    name: 'windows-1252, no charset anywhere',
    html: page(FRENCH_TITLE, ''),
    encoding: 'windows-1252',
    contentType: 'text/html',
    title: FRENCH_TITLE,
    charset: 'windows-1252',
    passed: false,
    source: null,
  },
  {
    name: 'windows-1252, meta charset after the first 1024 bytes',
    html: page(FRENCH_TITLE, FILLER, '<meta charset="windows-1252">'),
    encoding: 'windows-1252',
    contentType: 'text/html',
    title: FRENCH_TITLE,
    charset: 'windows-1252',
    passed: false,
    source: 'meta_after_1024_bytes',
  },
  {
    name: 'Shift_JIS, charset only in the header',
    html: page(JAPANESE_TITLE, ''),
    encoding: 'shift_jis',
    contentType: 'text/html; charset=Shift_JIS',
    title: JAPANESE_TITLE,
    charset: 'shift_jis',
    passed: true,
    source: 'header',
  },
  {
    name: 'Shift_JIS, charset only in a meta http-equiv',
    html: page(JAPANESE_TITLE, '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'),
    encoding: 'shift_jis',
    contentType: 'text/html',
    title: JAPANESE_TITLE,
    charset: 'shift_jis',
    passed: true,
    source: 'meta',
  },
  {
    // The header wins over a contradicting meta tag, as in browsers.
    name: 'Shift_JIS in the header, a wrong utf-8 meta tag',
    html: page(JAPANESE_TITLE, '<meta charset="utf-8">'),
    encoding: 'shift_jis',
    contentType: 'text/html; charset=shift_jis',
    title: JAPANESE_TITLE,
    charset: 'shift_jis',
    passed: true,
    source: 'header',
  },
  {
    name: 'UTF-8 with a byte order mark and no other declaration',
    html: `\uFEFF${page(FRENCH_TITLE, '')}`,
    encoding: 'utf-8',
    contentType: 'text/html',
    title: FRENCH_TITLE,
    charset: 'utf-8',
    passed: true,
    source: 'bom',
  },
  {
    name: 'UTF-8, no charset anywhere',
    html: page(FRENCH_TITLE, ''),
    encoding: 'utf-8',
    contentType: 'text/html',
    title: FRENCH_TITLE,
    charset: 'utf-8',
    passed: false,
    source: null,
  },
];

const analyze = analyzer();
let started: GoldenSite;

beforeAll(async () => {
  const routes: Record<string, Handler> = {};
  CASES.forEach((testCase, index) => {
    routes[`/page-${index}`] = respond(iconv.encode(testCase.html, testCase.encoding), testCase.contentType);
  });
  started = await startGoldenSite(routes);
});
afterAll(() => started.close());
beforeEach(() => clearOriginFactsCache());

describe('legacy charsets', () => {
  it.each(CASES.map((testCase, index) => ({ ...testCase, index })))('$name', async (testCase) => {
    const analysis = await analyze(started.url(`/page-${testCase.index}`));

    expect(analysis.results.title.value).toMatchObject({ title: testCase.title });
    expect(analysis.results.headings.value).toMatchObject({ h1: [testCase.title] });
    expect(analysis.page.charset).toBe(testCase.charset);
    expect(analysis.results.charset.passed).toBe(testCase.passed);
    expect(analysis.results.charset.value).toEqual({ charset: testCase.charset, source: testCase.source });
  });

  it('garbles a Shift_JIS page that declares no charset, and fails the charset check', async () => {
    const bytes = iconv.encode(page(JAPANESE_TITLE, ''), 'shift_jis');
    const site = await startGoldenSite({ '/': respond(bytes, 'text/html') });
    try {
      const analysis = await analyze(site.url('/'));

      // Without a declaration nothing tells the bytes are Shift_JIS; the windows-1252 fallback reads
      // them as Latin letters, which is exactly why the declaration matters.
      expect(analysis.page.charset).toBe('windows-1252');
      expect(analysis.results.title.value).toMatchObject({ title: iconv.decode(bytes, 'windows-1252').match(/<title>(.*)<\/title>/)![1] });
      expect((analysis.results.title.value as { title: string }).title).not.toBe(JAPANESE_TITLE);
      expect(analysis.results.charset).toMatchObject({ passed: false, value: { charset: 'windows-1252', source: null } });
    } finally {
      await site.close();
    }
  });
});
