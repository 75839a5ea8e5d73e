// The engine (parse, every check, score) on hostile input: generated HTML soup, real corpus pages cut
// and spliced, binary garbage, 100,000-deep nesting, megabyte attributes, broken JSON-LD, huge link
// counts, and arbitrary response headers and robots.txt. Each input must give a complete report: no
// exception, and no check that threw (the runner turns a throw into reason "internal error", so that is
// what is looked for). Time is bounded by the test timeout; there are no timing assertions.
//
// Property runs use a fixed seed (FUZZ_SEED overrides it); fast-check prints the seed and the path of
// a failing case, which replays it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzePage } from '../../src/analysis/analyze-page.ts';
import { valueSchemaMismatches } from '../support/value-schemas.ts';
import { allChecks } from '../../src/checks/index.ts';
import { DEFAULT_THRESHOLDS } from '../../src/checks/thresholds.ts';
import type { FetchedPage, OriginFacts } from '../../src/fetch/types.ts';
import { corpusFetchedPage, corpusOriginFacts, loadCorpus, type CorpusPage } from '../support/corpus.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const CHECK_IDS = allChecks.map((check) => check.id);
const MB = 1024 * 1024;

function pageOf(html: string, url = 'https://fuzz.example/a/b.html?q=1'): CorpusPage {
  return { file: 'fuzz', url, bytes: Buffer.from(html), html };
}

/** Runs the engine and fails on anything short of a complete, serialisable report. */
function expectCompleteReport(page: FetchedPage, origin: OriginFacts): void {
  const thrown: string[] = [];
  const analysis = analyzePage(page, origin, DEFAULT_THRESHOLDS, (id, error) => thrown.push(`${id}: ${String(error)}`));
  expect(thrown).toEqual([]);
  expect(Object.keys(analysis.results)).toEqual(CHECK_IDS);
  const internal = Object.entries(analysis.results).filter(([, result]) => result.reason === 'internal error');
  expect(internal.map(([id]) => id)).toEqual([]);
  expect(Number.isInteger(analysis.score) && analysis.score >= 0 && analysis.score <= 100).toBe(true);
  expect(['good', 'decent', 'bad']).toContain(analysis.result);
  // Every value keeps to the schema the OpenAPI document gives clients, whatever the input.
  expect(valueSchemaMismatches(analysis)).toEqual([]);
  // The report is stored as JSON: it must survive the round trip (no BigInt, cycle or undefined hole).
  expect(JSON.parse(JSON.stringify(analysis.results))).toEqual(JSON.parse(JSON.stringify(analysis.results)));
}

function analyzeHtml(html: string, url?: string): void {
  const page = pageOf(html, url);
  expectCompleteReport(corpusFetchedPage(page), corpusOriginFacts(page));
}

// ---- generators -------------------------------------------------------------------------------

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const markupChar = fc.constantFrom('<', '>', '/', '"', "'", '=', '&', ';', '#', '\u0000', '\n', '\t', ' ', '-', '!', '?', '[', ']');
/** Any text: every code point, lone surrogates, and markup characters often. */
const anyText = (maxLength: number) =>
  fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), loneSurrogate, markupChar), maxLength });

const TAGS = [
  'html', 'head', 'body', 'title', 'meta', 'link', 'script', 'style', 'base', 'a', 'img', 'picture', 'source',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'div', 'span', 'form', 'input', 'button', 'iframe', 'noscript',
  'template', 'svg', 'math', 'table', 'tr', 'td', 'ul', 'li', 'font', 'center', 'marquee', 'br', 'video',
  'object', 'embed', 'textarea', 'select', 'option', 'main', 'nav', 'article', 'frameset', 'frame', 'xmp',
  'plaintext', 'A', 'IMG', 'Meta', 'x-custom',
];
const ATTRIBUTES = [
  'href', 'src', 'srcset', 'sizes', 'rel', 'name', 'content', 'property', 'http-equiv', 'charset', 'lang',
  'hreflang', 'alt', 'title', 'width', 'height', 'type', 'action', 'method', 'target', 'style', 'id', 'loading',
  'media', 'async', 'defer', 'itemtype', 'itemprop', 'xml:lang', 'onclick', 'as', 'HREF', 'Content',
];
const SPECIAL_VALUES = [
  '', ' ', 'javascript:alert(1)', 'data:text/html,x', '//other.example/x', 'http://[::1]/', 'http://[bad/', '%',
  '%zz', 'https://fuzz.example/a b', 'mailto:someone@example.com', 'tel:+1', '#', '#top', '?', '../../..', '\\\\x',
  'noindex, nofollow', 'none', 'NOINDEX', 'text/html; charset=utf-8', 'text/html; charset=bogus', 'utf-8',
  'shift_jis', 'application/ld+json', 'width=device-width, initial-scale=1', 'user-scalable=no',
  'x.jpg 1x, y.jpg 2x', 'a.webp 100w, b.webp 2000w', ', , ,', '1x 2x', '-1', '0', '1e309', 'NaN', '99999999999999999999',
  'canonical', 'alternate', 'icon', 'shortcut icon', 'stylesheet', 'preload', 'nofollow noopener', '_blank', 'post',
  'get', 'x-default', 'en-US', 'zz-ZZ-invalid', 'og:title', 'og:image', 'twitter:card', 'description', 'robots',
  'googlebot', 'viewport', 'refresh', '0; url=javascript:x', 'lazy', 'module', 'https://schema.org/Product',
];
const attributeValue = fc.oneof(anyText(40), fc.constantFrom(...SPECIAL_VALUES), fc.webUrl({ withQueryParameters: true, withFragments: true }));
const attribute = fc
  .tuple(fc.oneof(fc.constantFrom(...ATTRIBUTES), fc.string({ minLength: 1, maxLength: 8 })), attributeValue, fc.constantFrom('"', "'", '', 'none'))
  .map(([name, value, quote]) => (quote === 'none' ? name : `${name}=${quote}${quote === '' ? value.replace(/[\s>]/g, '') : value}${quote}`));

const jsonLd = fc
  .tuple(
    fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc
        .record({
          '@context': fc.oneof(fc.constant('https://schema.org'), fc.json()),
          '@type': fc.oneof(fc.constantFrom('Article', 'Product', 'Organization', 'BreadcrumbList', ''), fc.json()),
          '@graph': fc.option(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 })),
          name: fc.jsonValue({ maxDepth: 2 }),
        })
        .map((value) => JSON.stringify(value)),
      anyText(60),
    ),
    fc.nat(),
    fc.boolean(),
  )
  .map(([json, cut, truncate]) => (truncate ? json.slice(0, cut % (json.length + 1)) : json))
  .map((json) => `<script type="application/ld+json">${json}</script>`);

const fragment = fc.constantFrom(
  '<', '</', '<!--', '-->', '<![CDATA[', ']]>', '<!doctype html>', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">', '<?xml version="1.0"?>',
  '&', '&amp', '&#x110000;', '&#0;', '&#xD800;', '&nbsp', '"', "'", '=', '>', '</script>', '<script>', '<style>',
  '</title>', '</head>', '<body>', '</html>', '\uFEFF', '\r\n',
);

const { node } = fc.letrec<{ node: string; element: string }>((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, anyText(30), fragment, jsonLd, tie('element')),
  element: fc
    .record({
      tag: fc.oneof(fc.constantFrom(...TAGS), fc.string({ minLength: 1, maxLength: 6 })),
      attributes: fc.array(attribute, { maxLength: 5 }),
      children: fc.array(tie('node'), { maxLength: 4 }),
      close: fc.constantFrom('matching', 'missing', 'self', 'other'),
    })
    .map(({ tag, attributes, children, close }) => {
      const open = `<${tag}${attributes.map((a) => ` ${a}`).join('')}${close === 'self' ? ' /' : ''}>`;
      const end = close === 'matching' ? `</${tag}>` : close === 'other' ? '</div>' : '';
      return `${open}${children.join('')}${end}`;
    }),
}));

const htmlSoup = fc.array(node, { maxLength: 8 }).map((nodes) => nodes.join(''));

const HEADER_NAMES = [
  'content-security-policy', 'strict-transport-security', 'x-frame-options', 'x-content-type-options', 'referrer-policy',
  'permissions-policy', 'server', 'x-powered-by', 'link', 'content-type', 'content-encoding', 'cache-control',
  'content-language', 'x-robots-tag', 'vary',
];
const headerValue = fc.oneof(
  anyText(80),
  fc.constantFrom(
    'max-age=31536000; includeSubDomains; preload', 'max-age=-1', 'max-age=1e99', "default-src 'self'; script-src 'unsafe-inline'",
    'nosniff', 'DENY', 'Apache/2.4.1 (Unix) PHP/5.4', '<https://fuzz.example/>; rel="canonical"', '<>; rel=', 'noindex',
    'googlebot: noindex', 'unavailable_after: 25 Jun 2010 15:00:00 PST', 'gzip', 'text/html; charset="utf-8"',
  ),
);
const robotsBody = fc.oneof(
  anyText(200),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('User-agent', 'Disallow', 'Allow', 'Sitemap', 'Crawl-delay', 'user-agent', 'Noindex', '', ':'),
        fc.oneof(anyText(20), fc.constantFrom('*', '/', '/$', '/*?', 'pagegrade', 'Googlebot', '', 'https://fuzz.example/sitemap.xml')),
      ),
      { maxLength: 12 },
    )
    .map((lines) => lines.map(([key, value]) => `${key}: ${value}`).join('\n')),
);

const pageUrl = fc.oneof(
  fc.constantFrom(
    'https://fuzz.example/', 'http://fuzz.example:8080/a/b.html?x=1', 'https://xn--bcher-kva.example/%C3%BC',
    'https://fuzz.example/a//b/../c/%zz', 'http://127.0.0.1/', 'https://[2001:db8::1]:8443/x', 'https://fuzz.example/' + 'a/'.repeat(300),
  ),
  fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }),
);

/** Fetch and origin facts, every field the checks read drawn from its whole range. */
const facts = fc.record({
  html: htmlSoup,
  url: pageUrl,
  statusCode: fc.integer({ min: 100, max: 599 }),
  headers: fc.dictionary(fc.constantFrom(...HEADER_NAMES), headerValue, { maxKeys: 8 }),
  xRobotsTag: fc.array(headerValue, { maxLength: 3 }),
  redirects: fc.array(fc.record({ url: pageUrl, statusCode: fc.constantFrom(301, 302, 303, 307, 308, 200, 999), location: pageUrl }), { maxLength: 4 }),
  httpVersion: fc.constantFrom('1.0', '1.1', '2', '3', ''),
  charset: fc.constantFrom('utf-8', 'windows-1252', 'shift_jis', 'x-user-defined', ''),
  charsetSource: fc.constantFrom('header' as const, 'bom' as const, 'meta' as const, 'default' as const),
  timings: fc.tuple(fc.nat({ max: 600_000 }), fc.nat({ max: 600_000 })),
  bytes: fc.tuple(fc.nat({ max: 50 * MB }), fc.nat({ max: 50 * MB })),
  robots: fc.option(robotsBody),
  robotsStatus: fc.constantFrom(200, 404, 500, null),
  probeStatus: fc.constantFrom(200, 404, 410, 301, 500, null),
  sitemap: fc.option(fc.record({ valid: fc.boolean(), urls: fc.nat({ max: 100_000 }), status: fc.constantFrom(200, 404, null) })),
  http2: fc.constantFrom(true, false, null),
});

type Facts = typeof facts extends fc.Arbitrary<infer T> ? T : never;

function factsToInput(input: Facts): { page: FetchedPage; origin: OriginFacts } {
  const base = pageOf(input.html, input.url);
  const page: FetchedPage = {
    ...corpusFetchedPage(base),
    statusCode: input.statusCode,
    headers: input.headers,
    xRobotsTag: input.xRobotsTag,
    redirects: input.redirects,
    contentType: input.headers['content-type'] ?? null,
    contentEncoding: input.headers['content-encoding'] ?? null,
    httpVersion: input.httpVersion,
    charset: input.charset,
    charsetSource: input.charsetSource,
    ttfbMs: Math.min(...input.timings),
    totalMs: Math.max(...input.timings),
    transferredBytes: input.bytes[0],
    bodyBytes: input.bytes[1],
  };
  const defaults = corpusOriginFacts(base);
  const aux = (response: OriginFacts['robotsTxt'], statusCode: number | null, body: string | null) => ({
    ...response,
    statusCode,
    body,
    error: statusCode === null ? 'connection refused' : null,
  });
  const origin: OriginFacts = {
    ...defaults,
    robotsTxt: aux(defaults.robotsTxt, input.robotsStatus, input.robots),
    notFoundProbe: aux(defaults.notFoundProbe, input.probeStatus, null),
    sitemap:
      input.sitemap === null
        ? null
        : { ...aux(defaults.sitemap!, input.sitemap.status, null), source: 'robots', validXml: input.sitemap.valid, urlCount: input.sitemap.urls },
    http2: input.http2,
  };
  return { page, origin };
}

// ---- properties -------------------------------------------------------------------------------

describe('the engine on generated input', () => {
  it('gives a complete report for any HTML soup', () => {
    fc.assert(
      fc.property(htmlSoup, (html) => analyzeHtml(html)),
      { numRuns: 200, seed: SEED },
    );
  });

  it('gives a complete report whatever the fetch facts, headers and robots.txt', () => {
    fc.assert(
      fc.property(facts, (input) => {
        const { page, origin } = factsToInput(input);
        expectCompleteReport(page, origin);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('gives a complete report for binary garbage read as text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.constantFrom('latin1' as const, 'utf8' as const, 'utf16le' as const), (bytes, encoding) =>
        analyzeHtml(Buffer.from(bytes).toString(encoding)),
      ),
      { numRuns: 150, seed: SEED },
    );
  });

  it('gives a complete report for real pages cut, spliced and garbled', { timeout: 120_000 }, () => {
    const corpus = loadCorpus();
    const edit = fc.record({
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      length: fc.nat({ max: 5000 }),
      kind: fc.constantFrom('delete', 'insert', 'duplicate', 'truncate'),
      text: fc.oneof(node, fragment, anyText(50)),
    });
    fc.assert(
      fc.property(fc.nat({ max: corpus.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 6 }), (index, edits) => {
        let html = corpus[index].html;
        for (const { at, length, kind, text } of edits) {
          const position = Math.floor(at * html.length);
          if (kind === 'delete') html = html.slice(0, position) + html.slice(position + length);
          else if (kind === 'insert') html = html.slice(0, position) + text + html.slice(position);
          else if (kind === 'duplicate') html = html.slice(0, position + length) + html.slice(position);
          else html = html.slice(0, position);
        }
        analyzeHtml(html, corpus[index].url);
      }),
      { numRuns: 100, seed: SEED },
    );
  });
});

describe('the engine on extreme pages', () => {
  const DEPTH = 100_000;
  it.each([
    ['nested divs', `${'<div>'.repeat(DEPTH)}deep${'</div>'.repeat(DEPTH)}`],
    ['unclosed divs', '<div>'.repeat(DEPTH)],
    ['nested links', '<a href="/x">'.repeat(DEPTH)],
    ['nested inline formatting', '<b><i><u>'.repeat(DEPTH / 3)],
    ['nested tables', '<table><tr><td>'.repeat(DEPTH / 3)],
    ['nested svg', '<svg><g>'.repeat(DEPTH / 2)],
    ['nested headings', '<h1><h2><h3>'.repeat(DEPTH / 3)],
    ['nested templates', '<template>'.repeat(DEPTH)],
    ['nested forms', '<form action="http://fuzz.example/f">'.repeat(DEPTH)],
    ['nested JSON-LD arrays', `<script type="application/ld+json">${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}</script>`],
    ['nested JSON-LD objects', `<script type="application/ld+json">${'{"@graph":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}</script>`],
  ])('%s, 100,000 deep', { timeout: 60_000 }, (_name, html) => analyzeHtml(html));

  it.each([
    ['href', `<a href="/${'a'.repeat(MB)}">x</a>`],
    ['srcset', `<img srcset="${'x.jpg 1x, '.repeat(MB / 10)}" src="x.jpg">`],
    ['meta description', `<meta name="description" content="${'word '.repeat(MB / 5)}">`],
    ['style', `<p style="${'color:red;'.repeat(MB / 10)}">x</p>`],
    ['canonical', `<link rel="canonical" href="https://fuzz.example/${'%'.repeat(MB)}">`],
    ['hreflang', `<link rel="alternate" hreflang="${'x'.repeat(MB)}" href="/">`],
    ['title', `<title>${'t'.repeat(MB)}</title>`],
    ['alt', `<img src="a.webp" alt="${'alt '.repeat(MB / 4)}">`],
    ['JSON-LD', `<script type="application/ld+json">${'['.repeat(MB)}</script>`],
  ])('a megabyte %s', { timeout: 60_000 }, (_name, html) => analyzeHtml(html));

  it.each([
    ['not JSON', '{"@context": "https://schema.org", "@type": "Article",'],
    ['a bare string', '"Article"'],
    ['null', 'null'],
    ['a prototype key', '{"__proto__": {"@type": "Article"}, "constructor": {"prototype": 1}}'],
    ['types that are not strings', '{"@context": 1, "@type": [null, {}, 3, ["x"]], "@graph": "x"}'],
    ['a huge number', `{"@type": "Product", "offers": {"price": 1e400}, "n": ${'9'.repeat(5000)}}`],
    ['an HTML comment', '<!-- {"@type": "Article"} -->'],
    ['many documents', Array.from({ length: 2000 }, () => '{"@type":"Thing"}').join('')],
  ])('invalid JSON-LD: %s', (_name, json) => {
    analyzeHtml(`<html><head><script type="application/ld+json">${json}</script></head><body>x</body></html>`);
  });

  it.each([
    ['100,000 links', Array.from({ length: 100_000 }, (_, i) => `<a href="/p${i}">link ${i}</a>`).join('')],
    ['50,000 images', Array.from({ length: 50_000 }, (_, i) => `<img src="/i${i}.bmp">`).join('')],
    ['50,000 e-mail addresses', Array.from({ length: 50_000 }, (_, i) => `a${i}@example.com `).join('')],
    ['100,000 attributes on one element', `<div ${Array.from({ length: 100_000 }, (_, i) => `a${i}="${i}"`).join(' ')}>`],
    ['20,000 hreflang links', Array.from({ length: 20_000 }, (_, i) => `<link rel="alternate" hreflang="x${i}" href="/l${i}">`).join('')],
    ['a megabyte of random bytes', Buffer.from(Array.from({ length: MB }, (_, i) => (i * 2_654_435_761) >>> 24)).toString('latin1')],
  ])('%s', { timeout: 60_000 }, (_name, html) => analyzeHtml(html));
});
