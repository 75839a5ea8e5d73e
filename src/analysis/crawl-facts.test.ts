import { describe, expect, it } from 'vitest';
import { makeContext } from '../../test/support/check-context.ts';
import { parsePage } from '../parse/parse-page.ts';
import { analyzePage } from './analyze-page.ts';
import { PageText } from '../fetch/page-text.ts';
import type { CrawlLinkOptions } from './types.ts';

const CRAWL: CrawlLinkOptions = { host: 'example.com', robotsTxt: null, robotsToken: 'pagegrade', maxLinks: 1000 };

function crawlFacts(html: string, url = 'https://example.com/shop/', crawl: Partial<CrawlLinkOptions> = {}) {
  const { page } = makeContext({ page: { requestedUrl: url, finalUrl: url, html } });
  return analyzePage(page, makeContext().origin, makeContext().thresholds, undefined, new Date(), { ...CRAWL, ...crawl }).crawlFacts!;
}

const anchors = (...hrefs: string[]) => hrefs.map((href) => `<a href="${href}">x</a>`).join('\n');

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
      external: ['https://other.example/', 'https://example.com:8443/'],
      linksDropped: 0,
      canonicalBlocked: false,
    });
  });

  it('records the first maxLinks distinct targets in document order, internal and external together, and counts the rest', () => {
    const html = anchors('/a', 'https://other.example/x#frag', '/a#top', 'HTTPS://EXAMPLE.COM:443/b', '/c', 'https://other.example/y', '/c', '/d', '/b');
    expect(crawlFacts(html, 'https://example.com/', { maxLinks: 3 })).toMatchObject({
      links: ['https://example.com/a', 'https://example.com/b'],
      external: ['https://other.example/x'],
      // /c, other.example/y and /d: each counted once however often linked
      linksDropped: 3,
    });
  });

  it('keeps on the crawled host only what robots.txt allows, and says when the canonical is disallowed', () => {
    const robotsTxt = 'User-agent: *\nDisallow: /\n\nUser-agent: pagegrade\nDisallow: /private\nDisallow: /*?sort=\n';
    const html = `<link rel="canonical" href="https://example.com/private/page">${anchors('/private/x', '/open', '/list?sort=price', 'https://other.example/private')}`;
    const facts = crawlFacts(html, 'https://example.com/private/page?utm=1', { robotsTxt });
    expect(facts).toMatchObject({ links: ['https://example.com/open'], external: ['https://other.example/private'], linksDropped: 0, canonicalBlocked: true });
    // The disallowed ones took their places among the first maxLinks all the same.
    expect(crawlFacts(anchors('/private/x', '/open', '/next'), 'https://example.com/', { robotsTxt, maxLinks: 2 })).toMatchObject({
      links: ['https://example.com/open'],
      linksDropped: 1,
    });
    expect(crawlFacts(html, 'https://example.com/', { robotsTxt, robotsToken: 'otherbot' })).toMatchObject({ links: [], canonicalBlocked: true });
    expect(crawlFacts(html, 'https://example.com/').canonicalBlocked).toBe(false);
  });

  it('takes the crawl\'s host as its own, whatever host the page ended on', () => {
    const facts = crawlFacts(anchors('https://www.example.com/a', 'https://example.com/b'), 'https://www.example.com/', { host: 'example.com' });
    expect(facts).toMatchObject({ links: ['https://example.com/b'], external: ['https://www.example.com/a'] });
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
