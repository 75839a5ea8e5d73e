import { describe, expect, it } from 'vitest';
import type { SitePageRow } from '../repositories/crawl.repository.ts';
import { buildSite } from './site-facts.ts';

let ids = 0;
function row(url: string, fields: Partial<SitePageRow> = {}): SitePageRow {
  ids += 1;
  return {
    id: ids,
    url: `https://example.com${url}`,
    state: 'done',
    depth: 1,
    in_sitemap: 0,
    status_code: 200,
    redirect_target: null,
    error: null,
    score: null,
    facts: null,
    ...fields,
  };
}

const redirect = (url: string, to: string, status = 301) =>
  row(url, { status_code: status, redirect_target: `https://example.com${to}` });
const page = (url: string, links: string[] = []) =>
  row(url, { facts: JSON.stringify({ title: url, description: null, canonical: null, noindex: false, textHash: null, hreflang: [], links: links.map((link) => `https://example.com${link}`), nofollow: [] }) });

describe('the site its checks see', () => {
  it('follows redirects through the answers stored for each URL', () => {
    const rows = [redirect('/a', '/b'), redirect('/b', '/c', 302), row('/c', { status_code: 404 }), redirect('/x', '/y'), redirect('/y', '/x')];
    const { facts } = buildSite('https://example.com/', rows, () => false);
    const [a, b, , x] = facts.pages;
    expect(a).toMatchObject({ statusCode: 301, redirectTarget: 'https://example.com/c', redirectHops: 2, redirectLoop: false, finalStatusCode: 404 });
    expect(b).toMatchObject({ redirectTarget: 'https://example.com/c', redirectHops: 1, finalStatusCode: 404 });
    expect(x).toMatchObject({ redirectHops: 2, redirectLoop: true, finalStatusCode: null });
  });

  it('ends a chain leaving the host, or at a URL not fetched, with no final status', () => {
    const rows = [row('/off', { status_code: 301, redirect_target: 'https://other.example/' }), redirect('/to-pending', '/pending'), row('/pending', { state: 'pending', status_code: null })];
    const [off, toPending] = buildSite('https://example.com/', rows, () => false).facts.pages;
    expect(off).toMatchObject({ redirectTarget: 'https://other.example/', redirectHops: 1, finalStatusCode: null });
    expect(toPending).toMatchObject({ redirectTarget: 'https://example.com/pending', finalStatusCode: null });
  });

  it('turns links into page indexes and counts each page\'s inlinks, leaving out unknown URLs and self-links', () => {
    const rows = [page('/', ['/a', '/b', '/', '/disallowed']), page('/a', ['/b']), page('/b')];
    const site = buildSite('https://example.com/', rows, () => false);
    expect(site.facts.pages[0].linksOut).toEqual([1, 2, 0]);
    expect(site.inlinks).toEqual([0, 1, 2]);
    expect(site.facts.pages[2].html).toBe(true);
    expect(site.rowIds).toEqual(rows.map((r) => r.id));
  });
});
