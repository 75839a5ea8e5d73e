// Golden pages through the whole pipeline (fetch -> parse -> checks -> score) from a loopback site: the
// expected `passed` of every check of docs/checks.md, the score worked out by hand, and the values that
// show the checks read the right things.
//
// Points (docs/checks.md, "Score and verdict"): high 10, medium 5, low 2. All 54 checks: 8 high, 22
// medium, 24 low = 238 points. On plain http, http2 (low), hsts (low) and mixed_content (medium) never
// apply, nor without render=1 javascript_dependency (medium): 238 - 14 = 224. Without lab=1 the lab
// checks (largest_contentful_paint and the other four lab metrics, every a11y_ check) never apply:
// they add nothing to either side.
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { accessibilityChecks } from '../../src/checks/accessibility/index.ts';
import {
  analyzer,
  FAVICON_BYTES,
  goldenPage,
  redirect,
  respond,
  startGoldenSite,
  verdicts,
  type GoldenSite,
  type Handler,
  wellKeptSite,
} from './support/golden-site.ts';

type Verdict = boolean | null;

/** Every accessibility check, none of which applies without a lab audit. */
const NO_LAB_ACCESSIBILITY = Object.fromEntries(accessibilityChecks.map((check) => [check.id, null])) as Record<`a11y_${string}`, null>;

/**
 * What every check's `passed` is on a well-kept page served over plain http (the "good" page): all
 * pass, except https_encryption, which fails, and the checks that cannot apply on http (http2,
 * mixed_content, hsts). Each golden page states only how it differs from this.
 */
const WELL_KEPT_ON_HTTP = {
  title: true,
  meta_description: true,
  headings: true,
  heading_order: true,
  content_keywords: true,
  image_keywords: true,
  seo_friendly_url: true,
  '404_page': true,
  robots: true,
  robots_txt_valid: true,
  noindex: true,
  http_status: true,
  redirects: true,
  canonical: true,
  hreflang: true,
  in_page_links: true,
  link_text: true,
  crawlable_anchors: true,
  language: true,
  favicon: true,
  open_graph: true,
  content_length: true,
  text_html_ratio: true,
  javascript_dependency: null, // not rendered
  text_compression: true,
  load_time: true,
  ttfb: true,
  page_size: true,
  http_requests: true,
  image_format: true,
  image_dimensions: true,
  defer_javascript: true,
  dom_size: true,
  doctype: true,
  http2: null,
  https_encryption: false,
  mixed_content: null,
  hsts: null,
  server_signature: true,
  unsafe_cross_origin_links: true,
  plaintext_email: true,
  security_headers: true,
  insecure_forms: null, // no form
  structured_data: true,
  meta_viewport: true,
  charset: true,
  sitemap: true,
  social: true,
  inline_css: true,
  deprecated_html_tags: true,
  ai_crawlers: true,
  llms_txt: true,
  structured_data_valid: true,
  rich_results: true,
  // No lab audit (lab=1).
  largest_contentful_paint: null,
  cumulative_layout_shift: null,
  total_blocking_time: null,
  first_contentful_paint: null,
  page_weight: null,
  ...NO_LAB_ACCESSIBILITY,
} satisfies Record<string, Verdict>;

type CheckId = keyof typeof WELL_KEPT_ON_HTTP;
type VerdictTable = Record<CheckId, Verdict>;

/** A page's full expected table: the well-kept default with the page's differences laid over it. */
function expectedVerdicts(differences: Partial<VerdictTable>): VerdictTable {
  return { ...WELL_KEPT_ON_HTTP, ...differences };
}

/** The same verdict for several checks, to spread into a page's differences. */
function each(verdict: Verdict, ...ids: CheckId[]): Partial<VerdictTable> {
  return Object.fromEntries(ids.map((id) => [id, verdict]));
}

const analyze = analyzer();
const sites: GoldenSite[] = [];

async function site(routes: Record<string, Handler>): Promise<GoldenSite> {
  const started = await startGoldenSite(routes);
  sites.push(started);
  return started;
}

beforeEach(() => clearOriginFactsCache());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((started) => started.close()));
});

describe('golden page "good"', () => {
  it('passes every check that applies on http except https_encryption', async () => {
    const started = await site(wellKeptSite('/guides/mountain-coffee', goldenPage('good'), { coding: 'gzip' }));
    const analysis = await analyze(started.url('/guides/mountain-coffee'));

    expect(verdicts(analysis)).toEqual(expectedVerdicts({}));
    // Applicable: 224 - insecure_forms 5 = 219. Failed: https_encryption 10.
    // score = round(100 * 209 / 219) = round(95.43) = 95 -> good.
    expect(analysis.score).toBe(95);
    expect(analysis.result).toBe('good');
    expect(analysis.issues).toEqual({ high: 1, medium: 0, low: 0 });

    const { results } = analysis;
    expect(results.title.value).toMatchObject({ title: 'Mountain Coffee Guide: Growing, Roasting and Brewing', length: 52, count: 1 });
    expect(results.meta_description.value).toMatchObject({
      description: 'How mountain coffee is grown, harvested, roasted and brewed, with simple tips for a better cup at home every morning.',
      length: 117,
    });
    expect(results.headings.value).toMatchObject({ h1: ['Mountain coffee, from the farm to your cup'], counts: { h1: 1, h2: 3, h3: 1 } });
    expect(results.robots.value).toMatchObject({ group: '*', rule: { type: 'allow', pattern: '/', line: 3 } });
    expect(results.sitemap.value).toMatchObject({ url: started.url('/sitemap.xml'), source: 'robots', url_count: 1 });
    expect(results.in_page_links.value).toMatchObject({ internal: 4, external: 2, total: 6 });
    expect(results.structured_data.value).toMatchObject({ formats: ['json-ld', 'open_graph'], types: ['Article'] });
    // One JSON-LD Article with a headline: valid schema.org (Open Graph makes no item), and eligible
    // for Google's Article feature, which requires nothing; its other recommended properties
    // (author, dateModified, datePublished, image) are missing: warnings, which never fail.
    expect(results.structured_data_valid.value).toEqual({ schema_org_version: '30.0', items: 1, formats: ['json-ld'], errors: 0 });
    expect(results.rich_results.value).toEqual({
      schema_org_version: '30.0',
      eligible: ['Article'],
      ineligible: [],
      retired: [],
      errors: 0,
      warnings: 4,
    });
    expect(results.canonical.value).toMatchObject({ canonical: 'https://coffee.example/guides/mountain-coffee' });
    expect(results.text_compression.value).toMatchObject({ content_encoding: 'gzip' });
    expect(results.social.value).toMatchObject({ networks: ['x', 'instagram'] });
    expect(results.ai_crawlers.value).toMatchObject({ 'OAI-SearchBot': { purpose: 'search', allowed: true }, GPTBot: { purpose: 'training', allowed: true } });
    expect(results.llms_txt.value).toMatchObject({ title: 'Coffee Notes', sections: 1, links: 1 });
    expect(results.https_encryption.errors).toEqual({ insecure_url: [started.url('/guides/mountain-coffee')] });
    expect(analysis.page).toMatchObject({ final_url: started.url('/guides/mountain-coffee'), status_code: 200, redirects: [], charset: 'utf-8' });
  });
});

describe('golden page "poor"', () => {
  it('fails most checks, with the offending items listed', async () => {
    const pagePath = '/Old_Pages/poor_page.html';
    // No robots.txt, no sitemap, no favicon, no llms.txt: the fallback answers 404 for all of them.
    const started = await site({
      [pagePath]: respond(goldenPage('poor'), 'text/html', {
        headers: { server: 'Apache/2.2.22 (Ubuntu)', 'x-powered-by': 'PHP/5.3.10' },
      }),
    });
    const analysis = await analyze(started.url(pagePath));

    expect(verdicts(analysis)).toEqual(
      expectedVerdicts({
        // robots still passes: a 404 robots.txt allows everything.
        robots_txt_valid: null,
        ...each(null, 'structured_data_valid', 'rich_results'), // no structured data at all
        ...each(
          false,
          'title',
          'meta_description',
          'headings',
          'heading_order',
          'content_keywords',
          'image_keywords',
          'seo_friendly_url',
          'canonical',
          'hreflang',
          'link_text',
          'crawlable_anchors',
          'language',
          'favicon',
          'open_graph',
          'content_length',
          'text_html_ratio',
          'text_compression',
          'image_format',
          'image_dimensions',
          'defer_javascript',
          'server_signature',
          'unsafe_cross_origin_links',
          'plaintext_email',
          'security_headers',
          'insecure_forms',
          'structured_data',
          'meta_viewport',
          'charset',
          'sitemap',
          'social',
          'inline_css',
          'deprecated_html_tags',
          'llms_txt',
        ),
      }),
    );
    // Applicable: 224 - robots_txt_valid 2 - structured_data_valid 5 - rich_results 5 = 212.
    // Passed: robots, noindex, http_status (3 x 10) + 404_page, redirects, load_time, ttfb, page_size,
    // doctype (6 x 5) + in_page_links, http_requests, dom_size, ai_crawlers (4 x 2) = 30 + 30 + 8 = 68.
    // score = round(100 * 68 / 212) = round(32.08) = 32 -> bad.
    expect(analysis.score).toBe(32);
    expect(analysis.result).toBe('bad');
    expect(analysis.issues).toEqual({ high: 5, medium: 12, low: 17 });

    const { results } = analysis;
    expect(results.title.value).toMatchObject({ title: 'Home', length: 4 });
    expect(results.title.errors).toEqual({ too_short: [{ length: 4, min: 10 }] });
    expect(results.meta_description.errors).toEqual({ missing: ['<meta name="description">'] });
    expect(results.headings.errors).toEqual({ missing: ['<h1>'] });
    // Each listed element comes with its line in the page and its start tag, to find it in the source.
    expect(results.heading_order.errors).toEqual({
      skipped_level: [{ from: 'h2', to: 'h4', text: 'This week', line: 34, snippet: '<h4 style="color:navy">' }],
    });
    expect(results.content_keywords.value).toEqual({ title_words: ['home'], found: [] });
    const banner = { line: 35, snippet: '<img id="banner" src="/images/banner.jpg">' };
    const shoes = { line: 36, snippet: '<img src="http://cdn.poor.example/photos/shoes.png" width="120">' };
    expect(results.image_keywords.errors).toEqual({
      missing_alt: [
        { src: '/images/banner.jpg', ...banner },
        { src: 'http://cdn.poor.example/photos/shoes.png', ...shoes },
      ],
    });
    expect(results.image_dimensions.errors).toEqual({
      missing_dimensions: [
        { src: started.url('/images/banner.jpg'), ...banner },
        { src: 'http://cdn.poor.example/photos/shoes.png', ...shoes },
      ],
    });
    expect(results.image_format.errors).toEqual({
      legacy_format: [
        { url: started.url('/images/banner.jpg'), ...banner },
        { url: 'http://cdn.poor.example/photos/shoes.png', ...shoes },
      ],
    });
    expect(results.link_text.errors).toEqual({
      generic: [
        { href: '/offers', text: 'Click here', line: 50, snippet: '<a href="/offers">' },
        { href: '/news', text: 'Read more', line: 51, snippet: '<a href="/news">' },
      ],
    });
    expect(results.crawlable_anchors.errors).toEqual({
      javascript_href: [{ href: 'javascript:openMenu()', text: 'Open the menu', line: 52, snippet: '<a href="javascript:openMenu()">' }],
    });
    expect(results.unsafe_cross_origin_links.errors).toEqual({
      missing_noopener: [{ href: 'https://partner.example/deals', line: 53, snippet: '<a href="https://partner.example/deals" target="_blank">' }],
    });
    expect(results.plaintext_email.errors).toEqual({ in_text: ['sales@poor.example'] });
    const loginForm = { action: 'http://poor.example/login', line: 55, snippet: '<form action="http://poor.example/login" method="post" style="border:1px solid">' };
    expect(results.insecure_forms.errors).toEqual({ insecure_action: [loginForm], password_over_http: [loginForm] });
    expect(results.deprecated_html_tags.value).toEqual({ total: 3, by_tag: { center: 1, font: 1, strike: 1 } });
    expect(results.inline_css.value).toMatchObject({ elements_with_style: 21 });
    expect(results.defer_javascript.errors).toEqual({
      blocking_scripts: [{ src: started.url('/js/jquery-1.4.2.js'), line: 15, snippet: '<script src="/js/jquery-1.4.2.js">' }],
    });
    expect(results.seo_friendly_url.errors).toEqual({ underscores: ['Old_Pages', 'poor_page.html'] });
    expect(results.canonical.errors).toHaveProperty('relative');
    expect(results.hreflang.errors).toHaveProperty('invalid_code');
    expect(results.hreflang.errors).toHaveProperty('not_absolute_url');
    expect(results.meta_viewport.errors).toHaveProperty('no_device_width');
    expect(results.meta_viewport.errors).toHaveProperty('zoom_disabled');
    expect(results.server_signature.errors).toEqual({
      version_exposed: ['server: Apache/2.2.22 (Ubuntu)', 'x-powered-by: PHP/5.3.10'],
    });
    expect(results.security_headers.errors).toEqual({ missing: ['Content-Security-Policy', 'X-Content-Type-Options: nosniff'] });
    expect(results.charset.value).toEqual({ charset: 'utf-8', source: null });
    expect(results.text_compression.errors).toEqual({ uncompressed: [started.url(pagePath)] });
    expect(results.favicon.errors).toEqual({ missing: ['/favicon.ico answered 404'] });
    expect(results.sitemap.errors).toEqual({ missing: [`${started.origin}/sitemap.xml`] });
    expect(results.llms_txt.errors).toEqual({ missing: [{ url: `${started.origin}/llms.txt`, status_code: 404 }] });
    expect((results.text_html_ratio.value as { percent: number }).percent).toBeLessThan(10);
  });
});

describe('golden page "quirks"', () => {
  it('is decoded as windows-1252, judged in quirks mode, and reached through one redirect', async () => {
    const pagePath = '/cafe/oeffnungszeiten.html';
    const started = await site({
      // Googlebot has its own group, so the `*` group's "Disallow: /" does not apply to it.
      '/robots.txt': respond('User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /cafe/\nDisallow: /intern/\n', 'text/plain'),
      '/favicon.ico': respond(FAVICON_BYTES, 'image/x-icon'),
      '/cafe/': redirect(pagePath),
      [pagePath]: respond(iconv.encode(goldenPage('quirks'), 'windows-1252'), 'text/html', {
        coding: 'deflate',
        headers: { server: 'Apache' },
      }),
    });
    const analysis = await analyze(started.url('/cafe/'));

    // redirects still passes (one hop is fine), and so does server_signature ("Apache" names no version).
    expect(verdicts(analysis)).toEqual(
      expectedVerdicts({
        canonical: null,
        hreflang: null,
        defer_javascript: null, // no external script
        unsafe_cross_origin_links: null, // no target=_blank link
        ...each(null, 'structured_data_valid', 'rich_results'), // no structured data at all
        ...each(
          false,
          'link_text',
          'open_graph',
          'content_length',
          'image_format',
          'doctype',
          'plaintext_email',
          'security_headers',
          'structured_data',
          'meta_viewport',
          'sitemap',
          'deprecated_html_tags',
          'ai_crawlers', // the `*` group's "Disallow: /" binds every AI agent, which has no group of its own
          'llms_txt',
        ),
      }),
    );
    // Applicable: 224 - canonical 5 - hreflang 2 - defer_javascript 2 - unsafe_cross_origin_links 2
    // - insecure_forms 5 - structured_data_valid 5 - rich_results 5 = 198.
    // Failed: https_encryption 10 + link_text, image_format, doctype, structured_data, meta_viewport
    // (5 x 5) + open_graph, content_length, plaintext_email, security_headers, sitemap,
    // deprecated_html_tags, ai_crawlers, llms_txt (8 x 2) = 10 + 25 + 16 = 51.
    // score = round(100 * (198 - 51) / 198) = round(74.24) = 74 -> decent.
    expect(analysis.score).toBe(74);
    expect(analysis.result).toBe('decent');
    expect(analysis.issues).toEqual({ high: 1, medium: 5, low: 8 });

    const { results } = analysis;
    expect(analysis.page).toMatchObject({
      final_url: started.url(pagePath),
      redirects: [{ url: started.url('/cafe/'), status_code: 301 }],
      charset: 'windows-1252',
    });
    expect(results.title.value).toMatchObject({ title: 'Café Müller – Öffnungszeiten und Speisekarte', length: 44 });
    expect(results.meta_description.value).toMatchObject({
      description: 'Café Müller in Köln: Öffnungszeiten, Speisekarte und Kuchen der Woche – seit 1987 direkt am Rhein.',
    });
    expect(results.headings.value).toMatchObject({ h1: ['Café Müller am Rhein'] });
    expect(results.charset.value).toEqual({ charset: 'windows-1252', source: 'meta' });
    expect(results.doctype.value).toEqual({ doctype: '!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"', mode: 'quirks' });
    expect(results.robots.value).toMatchObject({ group: 'googlebot', rule: { type: 'allow', pattern: '/cafe/', line: 5 } });
    expect(results.redirects.value).toMatchObject({ count: 1, final_url: started.url(pagePath) });
    expect(results.link_text.errors).toEqual({
      generic: [
        { href: '/cafe/speisekarte.html', text: 'hier', line: 30, snippet: '<a href="/cafe/speisekarte.html">' },
        { href: '/cafe/kuchen.html', text: 'mehr', line: 31, snippet: '<a href="/cafe/kuchen.html">' },
      ],
    });
    expect(results.image_format.errors).toMatchObject({
      legacy_format: [
        { url: started.url('/bilder/kuchen.gif'), line: 26 },
        { url: started.url('/bilder/spacer.gif'), line: 27, snippet: '<img src="/bilder/spacer.gif" alt="" width="1" height="1">' },
      ],
    });
    expect(results.image_keywords.value).toMatchObject({ images: 2, missing_alt: 0, empty_alt: 1 });
    expect(results.plaintext_email.errors).toEqual({ in_mailto_links: ['info@cafe-mueller.example'] });
    expect(results.deprecated_html_tags.value).toEqual({ total: 5, by_tag: { center: 1, font: 3, marquee: 1 } });
    expect(results.text_compression.value).toMatchObject({ content_encoding: 'deflate' });
    expect(results.favicon.value).toMatchObject({ source: '/favicon.ico', status_code: 200, content_type: 'image/x-icon' });
    expect(results.social.value).toMatchObject({ networks: ['facebook'] });
  });
});

describe('golden page "noindex"', () => {
  it('scores above 80 but is capped at decent because it asks not to be indexed', async () => {
    const started = await site(wellKeptSite('/order/thank-you', goldenPage('noindex'), { coding: 'br' }));
    const analysis = await analyze(started.url('/order/thank-you'));

    // structured_data still passes: Open Graph counts. It is no schema.org item, though, so
    // structured_data_valid and rich_results do not apply.
    expect(verdicts(analysis)).toEqual(
      expectedVerdicts({
        noindex: false,
        content_length: false,
        ...each(
          null,
          'image_keywords',
          'image_format',
          'image_dimensions',
          'canonical',
          'hreflang',
          'defer_javascript',
          'unsafe_cross_origin_links',
          'structured_data_valid',
          'rich_results',
        ),
      }),
    );
    // Applicable: 224 - image_keywords 10 - image_format 5 - image_dimensions 2 - canonical 5
    // - hreflang 2 - defer_javascript 2 - unsafe_cross_origin_links 2 - insecure_forms 5
    // - structured_data_valid 5 - rich_results 5 = 181.
    // Failed: noindex 10 + https_encryption 10 + content_length 2 = 22.
    // score = round(100 * 159 / 181) = round(87.85) = 88: good by score, capped at decent.
    expect(analysis.score).toBe(88);
    expect(analysis.result).toBe('decent');

    const { results } = analysis;
    expect(results.noindex.value).toMatchObject({ blocked_by: '<meta name="robots">' });
    expect(results.noindex.errors).toEqual({ noindex: [{ source: '<meta name="robots">', content: 'noindex' }] });
    expect(results.title.value).toMatchObject({ title: 'Thank you for your order | Coffee Notes', length: 39 });
    expect(results.structured_data.value).toMatchObject({ formats: ['open_graph'] });
    expect(results.text_compression.value).toMatchObject({ content_encoding: 'br' });
  });
});
