import { describe, expect, it } from 'vitest';
import { parseSitemapBytes, parseSitemapXml, sitemapInspection } from './sitemap-xml.ts';

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://example.com/</loc><image:image><image:loc>https://example.com/a.png</image:loc></image:image></url>
  <url><loc>https://example.com/about</loc><lastmod>2024-01-01</lastmod></url>
</urlset>`;

const inspect = (xml: string) => sitemapInspection(parseSitemapXml(xml));

describe('the page check\'s view of a sitemap', () => {
  it('accepts a urlset and counts its URLs (not image locations)', () => {
    expect(inspect(URLSET)).toEqual({ validXml: true, urlCount: 2 });
  });

  it('accepts a sitemap index and counts its sitemaps', () => {
    const xml = '<sitemapindex><sitemap><loc>https://example.com/a.xml</loc></sitemap><sitemap><loc>https://example.com/b.xml</loc></sitemap></sitemapindex>';
    expect(inspect(xml)).toEqual({ validXml: true, urlCount: 2 });
  });

  it('accepts a namespace-prefixed root', () => {
    expect(inspect('<sm:urlset xmlns:sm="x"><sm:url><sm:loc>https://e.com/</sm:loc></sm:url></sm:urlset>').validXml).toBe(true);
  });

  it.each([
    ['an HTML page', '<!doctype html><html><body>Not found</body></html>'],
    ['an unclosed element', '<urlset><url><loc>https://e.com/</loc></urlset>'],
    ['a truncated document', '<urlset><url><loc>https://e.com/</loc></url>'],
    ['two roots', '<urlset></urlset><urlset></urlset>'],
    ['text outside the root', 'oops<urlset></urlset>'],
    ['an empty document', ''],
    ['the wrong root', '<rss><channel></channel></rss>'],
    // as it always has (a crawl reads such a file all the same, below)
    ['a self-closing element', '<urlset><url><loc>https://e.com/</loc><xhtml:link href="https://e.com/de"/></url></urlset>'],
  ])('rejects %s', (_name, xml) => {
    expect(inspect(xml).validXml).toBe(false);
  });
});

describe('parseSitemapXml', () => {
  it('takes the first non-empty <loc> of each <url>, trimmed, entities and CDATA decoded', () => {
    const xml = `<urlset><url><loc> https://e.com/a </loc><loc>https://e.com/second</loc></url><url><loc></loc><loc>https://e.com/b</loc></url>
      <url><loc>https://e.com/q?a=1&amp;b=2&#38;c=&#233;</loc></url><url><loc><![CDATA[https://e.com/c?x&y]]></loc></url>
      <url><loc><b>nested</b></loc></url><url><lastmod>2024</lastmod></url><url/></urlset>`;
    expect(parseSitemapXml(xml)).toEqual({
      error: null,
      pages: ['https://e.com/a', 'https://e.com/b', 'https://e.com/q?a=1&b=2&c=é', 'https://e.com/c?x&y'],
      sitemaps: [],
      entries: 7,
      selfClosing: true,
    });
  });

  it('lists an index\'s sitemaps apart from a urlset\'s pages', () => {
    const xml = '<sitemapindex><sitemap><loc>https://e.com/1.xml</loc></sitemap><url><loc>https://e.com/stray</loc></url></sitemapindex>';
    expect(parseSitemapXml(xml)).toMatchObject({ error: null, pages: [], sitemaps: ['https://e.com/1.xml'], entries: 2 });
  });

  it('reads a self-closing element as closed', () => {
    const xml = '<urlset><url><loc>https://e.com/</loc><xhtml:link rel="alternate" hreflang="de" href="https://e.com/de"/></url></urlset>';
    expect(parseSitemapXml(xml)).toMatchObject({ error: null, pages: ['https://e.com/'], selfClosing: true });
  });

  it.each([
    ['<urlset><url><loc>https://e.com/lost</loc></urlset>', 'The sitemap is not well-formed XML: <url> is not closed.'],
    ['<urlset><url><loc>https://e.com/lost</loc></url>', 'The sitemap is not well-formed XML: <urlset> is not closed.'],
    ['<urlset></urlset><urlset></urlset>', 'The sitemap is not well-formed XML: it has more than one root element.'],
    ['oops<urlset></urlset>', 'The sitemap is not well-formed XML: it has text outside the root element.'],
    ['', 'The sitemap is not XML: it has no root element.'],
    ['<rss><channel><link>https://e.com/</link></channel></rss>', "The sitemap's root element is <rss>, not <urlset> or <sitemapindex>."],
  ])('takes nothing from %j', (xml, error) => {
    expect(parseSitemapXml(xml)).toMatchObject({ error, pages: [], sitemaps: [] });
  });

  it('decodes bytes with the charset label, else by their BOM, else as UTF-8', () => {
    const latin1 = Buffer.from('<urlset><url><loc>https://e.com/caf\xe9</loc></url></urlset>', 'latin1');
    expect(parseSitemapBytes(latin1, 'iso-8859-1').pages).toEqual(['https://e.com/café']);
    const utf8 = Buffer.from('\ufeff<urlset><url><loc>https://e.com/café</loc></url></urlset>');
    expect(parseSitemapBytes(new Uint8Array(utf8), null).pages).toEqual(['https://e.com/café']);
  });
});
