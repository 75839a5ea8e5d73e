import { describe, expect, it } from 'vitest';
import { makeContext } from '../../test/support/check-context.ts';
import { parsePage } from '../parse/parse-page.ts';
import { analyzePage } from './analyze-page.ts';
import { PageText } from '../fetch/page-text.ts';

function crawlFacts(html: string, url = 'https://example.com/shop/') {
  const { page } = makeContext({ page: { requestedUrl: url, finalUrl: url, html } });
  return analyzePage(page, makeContext().origin, makeContext().thresholds, undefined, new Date(), true).crawlFacts!;
}

const PAGE = `<!doctype html><html><head>
<title>  Shop
  coffee </title>
<meta name="description" content="Fresh beans">
<link rel="canonical" href="https://example.com/shop">
<link rel="alternate" hreflang="DE" href="/de/shop/">
<meta name="robots" content="noindex">
</head><body><h1>Shop</h1><p>Fresh coffee beans, roasted daily.</p>
<a href="beans#top">Beans</a> <a href="/beans">Beans again</a> <a href="https://example.com/login" rel="nofollow">Log in</a>
<a href="https://other.example/">Elsewhere</a> <a href="mailto:a@example.com">Mail</a> <a href="https://example.com:8443/">Other port</a>
</body></html>`;

describe('the facts a crawl keeps of a page', () => {
  it('keeps title, description, canonical, robots, hreflang, and the links on its own host', () => {
    expect(crawlFacts(PAGE)).toMatchObject({
      title: 'Shop coffee',
      description: 'Fresh beans',
      canonical: 'https://example.com/shop',
      noindex: true,
      hreflang: [{ lang: 'de', url: 'https://example.com/de/shop/' }],
      links: ['https://example.com/shop/beans', 'https://example.com/beans', 'https://example.com/login'],
      nofollow: ['https://example.com/login'],
    });
  });

  it('hashes the visible text, so the same text gives the same hash whatever the markup around it', () => {
    const one = crawlFacts('<title>A</title><p>Fresh  coffee beans</p>').textHash;
    const two = crawlFacts('<title>B</title><div>Fresh coffee\n beans</div>', 'https://example.com/other').textHash;
    const three = crawlFacts('<title>A</title><p>Fresh tea leaves</p>').textHash;
    expect(one).toEqual(expect.any(String));
    expect(two).toBe(one);
    expect(three).not.toBe(one);
    expect(crawlFacts('<title>Empty</title>').textHash).toBeNull();
  });

  it('is left out of analyses that are not a crawl\'s', () => {
    const { page } = makeContext({ page: { html: PAGE } });
    expect(analyzePage(page, makeContext().origin, makeContext().thresholds).crawlFacts).toBeUndefined();
    expect(parsePage(PageText.of(PAGE), page.finalUrl).anchors).toHaveLength(6);
  });
});
