import { describe, expect, it } from 'vitest';
import { inspectSitemapXml } from './sitemap-xml.ts';

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://example.com/</loc><image:image><image:loc>https://example.com/a.png</image:loc></image:image></url>
  <url><loc>https://example.com/about</loc><lastmod>2024-01-01</lastmod></url>
</urlset>`;

describe('inspectSitemapXml', () => {
  it('accepts a urlset and counts its URLs (not image locations)', () => {
    expect(inspectSitemapXml(URLSET)).toEqual({ validXml: true, urlCount: 2 });
  });

  it('accepts a sitemap index and counts its sitemaps', () => {
    const xml = '<sitemapindex><sitemap><loc>https://example.com/a.xml</loc></sitemap><sitemap><loc>https://example.com/b.xml</loc></sitemap></sitemapindex>';
    expect(inspectSitemapXml(xml)).toEqual({ validXml: true, urlCount: 2 });
  });

  it('accepts a namespace-prefixed root', () => {
    expect(inspectSitemapXml('<sm:urlset xmlns:sm="x"><sm:url><sm:loc>https://e.com/</sm:loc></sm:url></sm:urlset>').validXml).toBe(true);
  });

  it.each([
    ['an HTML page', '<!doctype html><html><body>Not found</body></html>'],
    ['an unclosed element', '<urlset><url><loc>https://e.com/</loc></urlset>'],
    ['a truncated document', '<urlset><url><loc>https://e.com/</loc></url>'],
    ['two roots', '<urlset></urlset><urlset></urlset>'],
    ['text outside the root', 'oops<urlset></urlset>'],
    ['an empty document', ''],
    ['the wrong root', '<rss><channel></channel></rss>'],
  ])('rejects %s', (_name, xml) => {
    expect(inspectSitemapXml(xml).validXml).toBe(false);
  });
});
