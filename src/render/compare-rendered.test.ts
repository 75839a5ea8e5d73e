import { describe, expect, it } from 'vitest';
import { parsePage } from '../parse/parse-page.ts';
import { compareRendered, renderedComparison } from './compare-rendered.ts';
import { PageText } from '../fetch/page-text.ts';

const URL_ = 'https://shop.example/page';

/** The raw HTML of a single-page app: a shell, with what scripts fill in missing. */
const SHELL = `<!doctype html><html><head><title>Loading</title>
<meta name="robots" content="INDEX,  Follow">
<script src="/app.js"></script></head>
<body><div id="app"></div><a href="/about">About</a> <a href="#top">Top</a></body></html>`;

/** The same page as the browser leaves it (page.content()). */
const RENDERED = `<!DOCTYPE html><html><head><title>Fresh  bread
daily</title>
<meta name="robots" content="index, follow">
<meta name="description" content="Bread baked every morning.">
<link rel="canonical" href="/page">
<script src="/app.js"></script>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Bakery"},{"@type":"Product"}]}</script>
</head><body><div id="app"><h1>Bread</h1><h1>Cakes</h1>
<p>${'word '.repeat(50)}</p>
<a href="/about">About</a> <a href="/bread#top">Bread</a> <a href="https://www.shop.example/cakes">Cakes</a>
<a href="https://other.example/">Partner</a> <a href="/bread">Bread again</a> <a href="#top">Top</a>
<a href="mailto:a@shop.example">Mail</a></div></body></html>`;

describe('compareRendered', () => {
  it('pairs what the raw HTML and the rendered DOM say, and lists the links only the rendered page has', () => {
    const comparison = compareRendered(parsePage(PageText.of(SHELL), URL_), parsePage(PageText.of(RENDERED), URL_), URL_);
    expect(comparison).toEqual({
      title: { raw: 'Loading', rendered: 'Fresh bread daily' },
      meta_description: { raw: null, rendered: 'Bread baked every morning.' },
      canonical: { raw: null, rendered: 'https://shop.example/page' },
      // Directives compared as search engines read them: lower-case, one space after each comma.
      robots: { raw: 'index, follow', rendered: 'index, follow' },
      h1: { raw: [], rendered: ['Bread', 'Cakes'] },
      links: {
        raw: 1,
        rendered: 4,
        // Internal first (www. is the same site); a jump within the page, mailto: and a repeat are not links.
        only_rendered: ['https://shop.example/bread', 'https://www.shop.example/cakes', 'https://other.example/'],
        internal: { raw: 1, rendered: 3, only_rendered: 2 },
      },
      words: { raw: 2, rendered: 60 },
      json_ld_types: { raw: [], rendered: ['Bakery', 'Product'] },
    });
  });

  it('compares a relative and an absolute canonical by the URL they name', () => {
    const raw = parsePage(PageText.of('<head><link rel="canonical" href="https://shop.example/page"></head>'), URL_);
    const rendered = parsePage(PageText.of('<head><link rel="canonical" href="/page"></head>'), URL_);
    expect(compareRendered(raw, rendered, URL_).canonical).toEqual({ raw: URL_, rendered: URL_ });
  });

  it('lists at most 20 links only the rendered page has, while counting them all', () => {
    const links = Array.from({ length: 30 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
    const comparison = compareRendered(parsePage(PageText.of('<p>x</p>'), URL_), parsePage(PageText.of(links), URL_), URL_);
    expect(comparison.links.only_rendered).toHaveLength(20);
    expect(comparison.links.internal).toEqual({ raw: 0, rendered: 30, only_rendered: 30 });
  });
});

describe('renderedComparison', () => {
  it('parses the browser\'s DOM against the URL the browser ended on', () => {
    const rendered = renderedComparison(
      parsePage(PageText.of(SHELL), URL_),
      { ok: true, html: '<a href="next">Next</a>', finalUrl: 'https://shop.example/moved/', requests: 3, bytes: 100 },
      URL_,
    );
    expect(rendered).toMatchObject({ links: { only_rendered: ['https://shop.example/moved/next'] } });
  });

  it('keeps why a rendering failed', () => {
    expect(renderedComparison(parsePage(PageText.of(SHELL), URL_), { ok: false, reason: 'The browser crashed.' }, URL_)).toEqual({ error: 'The browser crashed.' });
  });
});
