// A generated loopback site of about 300 pages for crawl tests: a tree of sections and articles with
// navigation links, every site check's defect planted at known URLs beside clean counterparts that
// must not be flagged, a robots.txt and a sitemap. The site is made from a plan (deterministic: the
// same pages, words and links on every run), and what a crawl of it must find is computed from that
// plan by an independent model of docs/checks.md "Site checks" and docs/crawls.md (breadth-first
// click depth, redirects followed through the stored answers, indexability...), never from the
// crawler's own code.
//
// Built so that the expected depths hold whatever order the crawl takes pages in: every HTML page a
// sitemap lists links only to the start page, and every page is first found from a page whose own
// depth is already settled (the tree), so no click depth depends on which page a worker took first.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startRecordingSite, type RecordingSite } from './crawl-fixtures.ts';
import type { Handler } from './site-server.ts';

// ---- the plan ----

interface Link {
  /** a path on the site, or an absolute URL (another host) */
  href: string;
  rel?: string;
}

interface HtmlPlan {
  kind: 'html';
  title: string;
  description: string;
  /** visible body: heading, paragraph and links; equal bodies make duplicate content */
  heading: string;
  text: string;
  links: Link[];
  /** path (on the site) of its canonical, absolute in the page */
  canonical?: string;
  noindex?: boolean;
  hreflang?: { lang: string; href: string }[];
}

type Plan =
  | HtmlPlan
  /** a non-HTML answer, or an error page */
  | { kind: 'file'; status: number; contentType: string; body: string | Buffer }
  | { kind: 'redirect'; status: number; location: string }
  /** the connection is closed before any answer */
  | { kind: 'reset' };

export const SITE_CHECK_IDS = [
  'broken_links',
  'redirected_links',
  'redirect_chains',
  'duplicate_titles',
  'duplicate_descriptions',
  'duplicate_content',
  'canonical_targets',
  'hreflang_reciprocity',
  'orphan_pages',
  'sitemap_entries',
  'deep_pages',
  'internal_nofollow',
] as const;
export type SiteCheckId = (typeof SITE_CHECK_IDS)[number];

/** Stands for "some sentence saying why it could not be fetched" in expected items and pages. */
export const ANY_ERROR = '<error>';

interface ExpectedPage {
  url: string;
  status_code: number | null;
  depth: number | null;
  /** an analysed HTML page: it has a report */
  html: boolean;
  inlinks: number;
  /** could not be fetched (ANY_ERROR), else null */
  error: string | null;
  /** the row's own redirect (first hop), absolute; null without */
  redirect_target: string | null;
}

interface ExpectedCrawl {
  pagesFound: number;
  pagesCrawled: number;
  pagesFailed: number;
  /** every URL of the crawl */
  pages: Map<string, ExpectedPage>;
  /** every site check's count and items (items unordered; duplicate_content's text_hash left out) */
  issues: Record<SiteCheckId, { count: number; items: Record<string, unknown>[] }>;
}

export interface GeneratedSite {
  site: RecordingSite;
  origin: string;
  url(path: string): string;
  /** the start URL */
  start: string;
  expected: ExpectedCrawl;
  /**
   * What was planted for each check, as the item keys a reader can check by eye (URLs, or a group's
   * shared value): the model's findings must name exactly these.
   */
  planted: Record<SiteCheckId, string[]>;
  /** paths the site serves that a crawl must never request (robots-disallowed, not linked, other hosts) */
  neverRequested: string[];
  /** the robots.txt and sitemap paths (read when the crawl starts and by the first page's analysis) */
  auxPaths: string[];
  close(): Promise<void>;
}

const WORDS = (
  'coffee roast bean grind brew kettle filter press crema aroma origin valley harvest cherry washed natural honey ' +
  'altitude farmer cupping acidity body finish sweet bitter balance ratio water bloom pour drip espresso milk ' +
  'foam latte mocha cortado ristretto lungo barista scale timer burr blade storage fresh stale oxygen light ' +
  'dark medium profile batch drum cooling chaff smoke flavour note citrus berry chocolate caramel nut spice ' +
  'floral earthy wine tea cocoa sugar grain soil rain shade canopy terrace mill export import trade cup mug'
).split(' ');

/** A small deterministic generator: the same text for the same seed on every run. */
function wordsFor(seed: string, count: number): string {
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0;
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    words.push(WORDS[state % WORDS.length]);
  }
  return words.join(' ');
}

/** A page of its own: title, description and text that no other page shares. */
function ownPage(path: string, title: string, links: Link[], extra: Partial<HtmlPlan> = {}): HtmlPlan {
  const token = path.replace(/[^a-z0-9]+/gi, ' ').trim() || 'home';
  return {
    kind: 'html',
    title,
    description: `${title}: notes on ${wordsFor(`d${path}`, 6)} (${token}).`,
    heading: title,
    text: `${wordsFor(path, 60)}. Reference ${token}.`,
    links,
    ...extra,
  };
}

const HOME: Link = { href: '/' };
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

interface BuiltPlan {
  plan: Map<string, Plan>;
  sitemap: string[];
  planted: Record<SiteCheckId, string[]>;
  neverRequested: string[];
}

/** Ten sections of 24 articles (the planted defects name some of them), 300 URLs in all. */
const SECTIONS = 10;
const ARTICLES = 24;

function buildPlan(origin: string, otherHost: string): BuiltPlan {
  const sections = SECTIONS;
  const articles = ARTICLES;
  const plan = new Map<string, Plan>();
  const add = (path: string, page: Plan) => {
    if (plan.has(path)) throw new Error(`generated site: ${path} planned twice`);
    plan.set(path, page);
  };
  const url = (path: string) => `${origin}${path}`;
  const sectionPaths = Array.from({ length: sections }, (_, k) => `/s${k}/`);
  const articlePath = (k: number, m: number) => `/s${k}/a${m}`;

  // Extra links some articles carry (defects and their clean counterparts), by article path.
  const extraLinks = new Map<string, Link[]>([
    ['/s0/a5', [{ href: '/gone/404-a' }]],
    ['/s1/a5', [{ href: '/gone/404-a' }]],
    ['/s2/a5', [{ href: '/gone/410' }]],
    ['/s3/a1', [{ href: '/redir/one' }]],
    ['/s0/a2', [{ href: '/files/brochure.pdf' }, { href: '/files/photo.png' }]],
    // Other hosts: the same server under another name, and a public one; neither is requested.
    ['/s0/a3', [{ href: `${otherHost}/offhost-link` }]],
    ['/s2/a7', [{ href: 'https://example.org/elsewhere', rel: 'nofollow' }]],
    // The same page twice, once with a fragment: one URL.
    ['/s4/a2', [{ href: '/s4/a7#part' }, { href: '/s4/a7' }]],
    ['/s9/a23', [{ href: '/deep/1' }]],
  ]);

  add('/', ownPage('/', 'Mountain coffee roastery home', [...sectionPaths.map((href) => ({ href })), { href: '/specials/' }]));
  for (let k = 0; k < sections; k++) {
    add(
      sectionPaths[k],
      ownPage(sectionPaths[k], `Section ${k} of the roastery guide`, [HOME, ...sectionPaths.map((href) => ({ href })), ...Array.from({ length: articles }, (_, m) => ({ href: articlePath(k, m) }))]),
    );
    for (let m = 0; m < articles; m++) {
      const path = articlePath(k, m);
      const links: Link[] = [HOME, { href: sectionPaths[k] }];
      if (m > 0) links.push({ href: articlePath(k, m - 1) });
      if (m < articles - 1) {
        // An internal link with rel=nofollow (a defect); rel=noopener is no nofollow (clean).
        const rel = path === '/s2/a3' ? 'nofollow' : path === '/s2/a8' ? 'noopener' : undefined;
        links.push({ href: articlePath(k, m + 1), rel });
      }
      links.push(...(extraLinks.get(path) ?? []));
      // Every article names itself as canonical: a canonical to a fine page is no finding.
      add(path, ownPage(path, `Article ${m} of section ${k}`, links, { canonical: path }));
    }
  }

  // ---- broken links and redirects ----
  const notFound = '<!doctype html><title>Not found</title><h1>Not found</h1>';
  add('/gone/404-a', { kind: 'file', status: 404, contentType: 'text/html; charset=utf-8', body: notFound });
  add('/gone/410', { kind: 'file', status: 410, contentType: 'text/html; charset=utf-8', body: notFound });
  add('/gone/500', { kind: 'file', status: 500, contentType: 'text/plain', body: 'server error' });
  add('/gone/reset', { kind: 'reset' });
  add('/redir/one', { kind: 'redirect', status: 301, location: '/landing/one' });
  add('/landing/one', ownPage('/landing/one', 'Landing page one', [HOME]));
  add('/redir/302', { kind: 'redirect', status: 302, location: '/s0/a1' });
  add('/redir/chain-1', { kind: 'redirect', status: 301, location: '/redir/chain-2' });
  add('/redir/chain-2', { kind: 'redirect', status: 301, location: '/s1/a0' });
  add('/redir/to-404', { kind: 'redirect', status: 301, location: '/gone/404-a' });
  add('/redir/offhost', { kind: 'redirect', status: 301, location: `${otherHost}/offhost-target` });
  add('/loop/a', { kind: 'redirect', status: 301, location: '/loop/b' });
  add('/loop/b', { kind: 'redirect', status: 301, location: '/loop/a' });
  add('/files/brochure.pdf', { kind: 'file', status: 200, contentType: 'application/pdf', body: '%PDF-1.4 brochure' });
  add('/files/photo.png', { kind: 'file', status: 200, contentType: 'image/png', body: PNG });

  // ---- duplicates, with pages sharing the value that are not indexable under their own URL ----
  const sharedTitle = 'A title three pages share';
  for (const n of [1, 2, 3]) add(`/dup/title-${n}`, ownPage(`/dup/title-${n}`, sharedTitle, [HOME]));
  add('/dup/title-noindex', ownPage('/dup/title-noindex', sharedTitle, [HOME], { noindex: true }));
  add('/dup/title-canon', ownPage('/dup/title-canon', sharedTitle, [HOME], { canonical: '/dup/title-1' }));

  const sharedDescription = 'One description two indexable pages share.';
  for (const path of ['/dup/desc-1', '/dup/desc-2']) add(path, { ...ownPage(path, `Own title of ${path}`, [HOME]), description: sharedDescription });
  add('/dup/desc-noindex', { ...ownPage('/dup/desc-noindex', 'Own title of the noindex description page', [HOME], { noindex: true }), description: sharedDescription });

  const sharedBody = { heading: 'The same words on several pages', text: wordsFor('shared body', 80), links: [HOME] };
  for (const path of ['/dup/content-1', '/dup/content-2']) add(path, { ...ownPage(path, `Copy at ${path}`, []), ...sharedBody });
  add('/dup/content-noindex', { ...ownPage('/dup/content-noindex', 'Copy kept out of search', [], { noindex: true }), ...sharedBody });
  add('/dup/content-canon', { ...ownPage('/dup/content-canon', 'Copy naming the original', [], { canonical: '/dup/content-1' }), ...sharedBody });
  const otherBody = { heading: 'Another text three pages share', text: wordsFor('other shared body', 70), links: [HOME] };
  for (const path of ['/dup/text-a', '/dup/text-b', '/dup/text-c']) add(path, { ...ownPage(path, `Text copy at ${path}`, []), ...otherBody });

  // ---- canonicals ----
  add('/canon/to-404', ownPage('/canon/to-404', 'Canonical to a missing page', [HOME], { canonical: '/gone/404-a' }));
  add('/canon/to-redirect-1', ownPage('/canon/to-redirect-1', 'Canonical to a redirect, first', [HOME], { canonical: '/redir/one' }));
  add('/canon/to-redirect-2', ownPage('/canon/to-redirect-2', 'Canonical to a redirect, second', [HOME], { canonical: '/redir/one' }));
  add('/canon/to-noindex', ownPage('/canon/to-noindex', 'Canonical to a noindex page', [HOME], { canonical: '/noindex/page' }));
  add('/canon/to-blocked', ownPage('/canon/to-blocked', 'Canonical to a blocked page', [HOME], { canonical: '/private/secret' }));
  add('/canon/to-loop', ownPage('/canon/to-loop', 'Canonical to a redirect loop', [HOME], { canonical: '/loop/a' }));
  // Clean: a canonical to a URL the crawl never reached says nothing known; one to itself is fine.
  add('/canon/to-unfetched', ownPage('/canon/to-unfetched', 'Canonical to a page never crawled', [HOME], { canonical: '/never/linked' }));
  add('/canon/self', ownPage('/canon/self', 'Canonical to itself', [HOME], { canonical: '/canon/self' }));
  add('/noindex/page', ownPage('/noindex/page', 'A page kept out of search', [HOME], { noindex: true }));

  // ---- hreflang ----
  add('/intl/en', ownPage('/intl/en', 'English edition', [HOME], {
    hreflang: [
      { lang: 'en', href: '/intl/en' },
      { lang: 'de', href: '/intl/de' },
      // Not crawled, and not an HTML page: nothing to compare with (clean).
      { lang: 'it', href: '/intl/it' },
      { lang: 'x-default', href: '/gone/404-a' },
    ],
  }));
  add('/intl/de', ownPage('/intl/de', 'German edition', [HOME]));
  add('/intl/fr', ownPage('/intl/fr', 'French edition', [HOME], { hreflang: [{ lang: 'fr', href: '/intl/fr' }, { lang: 'es', href: '/intl/es' }] }));
  add('/intl/es', ownPage('/intl/es', 'Spanish edition', [HOME], { hreflang: [{ lang: 'ES', href: '/intl/es' }, { lang: 'fr', href: '/intl/fr' }] }));
  add('/intl/pt', ownPage('/intl/pt', 'Portuguese edition', [HOME], { hreflang: [{ lang: 'pt', href: '/intl/pt' }, { lang: 'fr', href: '/intl/fr' }] }));

  // ---- sitemap-only pages ----
  add('/orphan/1', ownPage('/orphan/1', 'Listed only in the sitemap, one', [HOME]));
  add('/orphan/2', ownPage('/orphan/2', 'Listed only in the sitemap, two', [HOME]));
  add('/sitemap/gone', { kind: 'file', status: 404, contentType: 'text/html; charset=utf-8', body: notFound });
  add('/sitemap/moved', { kind: 'redirect', status: 301, location: '/landing/moved' });
  add('/landing/moved', ownPage('/landing/moved', 'Where the moved sitemap entry lands', [HOME]));
  add('/listed/linked', ownPage('/listed/linked', 'Listed in the sitemap and linked', [HOME]));

  // ---- depth: a chain from an article (depth 2) to depth 7 ----
  for (let n = 1; n <= 5; n++) {
    add(`/deep/${n}`, ownPage(`/deep/${n}`, `Deep page ${n}`, n < 5 ? [HOME, { href: `/deep/${n + 1}` }] : [HOME]));
  }

  // ---- never to be requested ----
  add('/private/secret', ownPage('/private/secret', 'Disallowed by robots.txt', [HOME]));
  add('/never/linked', ownPage('/never/linked', 'Never linked from anywhere', [HOME]));
  add('/intl/it', ownPage('/intl/it', 'Italian edition, never linked', [HOME]));

  const specials = [
    '/gone/404-a', '/gone/500', '/gone/reset', '/redir/one', '/landing/one', '/redir/302', '/redir/chain-1', '/redir/to-404', '/redir/offhost', '/loop/a',
    '/dup/title-1', '/dup/title-2', '/dup/title-3', '/dup/title-noindex', '/dup/title-canon',
    '/dup/desc-1', '/dup/desc-2', '/dup/desc-noindex',
    '/dup/content-1', '/dup/content-2', '/dup/content-noindex', '/dup/content-canon', '/dup/text-a', '/dup/text-b', '/dup/text-c',
    '/canon/to-404', '/canon/to-redirect-1', '/canon/to-redirect-2', '/canon/to-noindex', '/canon/to-blocked', '/canon/to-loop', '/canon/to-unfetched', '/canon/self',
    '/noindex/page', '/intl/en', '/intl/de', '/intl/fr', '/intl/es', '/intl/pt', '/listed/linked', '/private/secret',
  ];
  add('/specials/', ownPage('/specials/', 'Special pages of the roastery', [HOME, ...specials.map((href) => ({ href })), { href: '/s3/', rel: 'nofollow noopener' }]));

  const sitemap = [
    url('/'),
    url('/listed/linked'),
    url('/orphan/1'),
    url('/orphan/2'),
    url('/sitemap/gone'),
    url('/sitemap/moved'),
    url('/redir/one'),
    url('/noindex/page'),
    url('/dup/title-canon'),
    // Another host's URL in the sitemap: never taken.
    `${otherHost}/offhost-sitemap`,
  ];
  add('/offhost-link', ownPage('/offhost-link', 'Reached only under another host name', [HOME]));
  add('/offhost-target', ownPage('/offhost-target', 'Redirected to under another host name', [HOME]));
  add('/offhost-sitemap', ownPage('/offhost-sitemap', 'Listed under another host name', [HOME]));

  const planted: Record<SiteCheckId, string[]> = {
    broken_links: ['/gone/404-a', '/gone/410', '/gone/500', '/gone/reset', '/redir/to-404'],
    redirected_links: ['/redir/one', '/redir/302', '/redir/chain-1', '/redir/to-404', '/redir/offhost'],
    redirect_chains: ['/redir/chain-1', '/loop/a', '/loop/b'],
    duplicate_titles: [sharedTitle],
    duplicate_descriptions: [sharedDescription],
    duplicate_content: ['/dup/content-1 /dup/content-2', '/dup/text-a /dup/text-b /dup/text-c'],
    canonical_targets: ['/gone/404-a', '/redir/one', '/noindex/page', '/private/secret', '/loop/a'],
    hreflang_reciprocity: ['/intl/en -> /intl/de', '/intl/pt -> /intl/fr'],
    orphan_pages: ['/orphan/1', '/orphan/2', '/sitemap/gone', '/sitemap/moved'],
    sitemap_entries: ['/sitemap/gone', '/sitemap/moved', '/redir/one', '/noindex/page', '/dup/title-canon'],
    deep_pages: ['/deep/3', '/deep/4', '/deep/5'],
    internal_nofollow: ['/s2/a3 -> /s2/a4', '/specials/ -> /s3/'],
  };
  return {
    plan,
    sitemap,
    planted,
    neverRequested: ['/private/secret', '/never/linked', '/intl/it', '/offhost-link', '/offhost-target', '/offhost-sitemap'],
  };
}

// ---- serving the plan ----

function render(origin: string, page: HtmlPlan): string {
  const head = [
    '<meta charset="utf-8">',
    `<title>${page.title}</title>`,
    `<meta name="description" content="${page.description}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    page.canonical ? `<link rel="canonical" href="${origin}${page.canonical}">` : '',
    page.noindex ? '<meta name="robots" content="noindex">' : '',
    ...(page.hreflang ?? []).map(({ lang, href }) => `<link rel="alternate" hreflang="${lang}" href="${origin}${href}">`),
  ].join('\n');
  const anchors = page.links
    .map(({ href, rel }) => `<li><a href="${href}"${rel ? ` rel="${rel}"` : ''}>${labelOf(href)}</a></li>`)
    .join('\n');
  return `<!doctype html>\n<html lang="en"><head>\n${head}\n</head><body>\n<h1>${page.heading}</h1>\n<p>${page.text}</p>\n<ul>\n${anchors}\n</ul>\n</body></html>`;
}

/** Link text from the address: "section 3 article 4" for /s3/a4. */
function labelOf(href: string): string {
  const words = href.replace(/^https?:\/\/[^/]+/, '').replace(/[^a-z0-9]+/gi, ' ').trim();
  return words === '' ? 'home' : `go to ${words}`;
}

function handlerFor(origin: string, page: Plan): Handler {
  switch (page.kind) {
    case 'html': {
      const markup = render(origin, page);
      return (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(markup);
      };
    }
    case 'file':
      return (_request, response) => {
        response.writeHead(page.status, { 'content-type': page.contentType });
        response.end(page.body);
      };
    case 'redirect':
      return (_request, response) => {
        response.writeHead(page.status, { location: page.location });
        response.end();
      };
    case 'reset':
      return (request: IncomingMessage, _response: ServerResponse) => {
        request.socket.destroy();
      };
  }
}

/** Starts the site on 127.0.0.1 (another host name for it: localhost) with `wrap` around every page's handler. */
export async function startGeneratedSite(options: { wrap?: (path: string, handler: Handler) => Handler } = {}): Promise<GeneratedSite> {
  const site = await startRecordingSite();
  const origin = site.origin;
  const otherHost = origin.replace('127.0.0.1', 'localhost');
  const built = buildPlan(origin, otherHost);
  const wrap = options.wrap ?? ((_path, handler) => handler);
  for (const [path, page] of built.plan) site.route(path, wrap(path, handlerFor(origin, page)));
  site.route('/robots.txt', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap.xml\n`);
  });
  site.route('/sitemap.xml', (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/xml' });
    response.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${built.sitemap
        .map((loc) => `<url><loc>${loc}</loc></url>`)
        .join('\n')}\n</urlset>\n`,
    );
  });
  const expected = expectedCrawl(origin, built.plan, built.sitemap, (path) => path.startsWith('/private/'));
  return {
    site,
    origin,
    url: site.url,
    start: `${origin}/`,
    expected,
    planted: built.planted,
    neverRequested: built.neverRequested,
    auxPaths: ['/robots.txt', '/sitemap.xml'],
    close: () => site.close(),
  };
}

// ---- the model: what a crawl of the plan must find ----

interface ModelPage {
  url: string;
  plan: Plan;
  depth: number | null;
  inSitemap: boolean;
  statusCode: number | null;
  error: string | null;
  /** first hop, absolute (on the host: as the crawl keys it; else as written) */
  redirectTarget: string | null;
  chain: { end: string; hops: number; loop: boolean; finalStatusCode: number | null } | null;
  linksOut: string[];
  nofollowOut: string[];
}

function expectedCrawl(origin: string, plan: Map<string, Plan>, sitemap: string[], disallowed: (path: string) => boolean): ExpectedCrawl {
  const host = new URL(origin).host;
  const abs = (href: string) => new URL(href, origin);
  /** The URL as the crawl keys it, or null when it is off the host or robots.txt forbids it. */
  const crawlKey = (href: string): string | null => {
    const url = abs(href);
    url.hash = '';
    if (url.host !== host || disallowed(url.pathname)) return null;
    return url.href;
  };
  const planOf = (key: string): Plan => {
    const page = plan.get(new URL(key).pathname);
    if (page === undefined) throw new Error(`generated site: ${key} is linked but not planned`);
    return page;
  };
  /** The URLs a page leads the crawl to: its links (one click more) or its redirect (no click). */
  const next = (page: Plan): { key: string; clicks: number }[] => {
    if (page.kind === 'html') return page.links.flatMap(({ href }) => (crawlKey(href) === null ? [] : [{ key: crawlKey(href)!, clicks: 1 }]));
    if (page.kind === 'redirect') return crawlKey(page.location) === null ? [] : [{ key: crawlKey(page.location)!, clicks: 0 }];
    return [];
  };

  // Click depth: shortest path from the start page (links cost a click, redirects none).
  const depth = new Map<string, number | null>();
  const start = `${origin}/`;
  depth.set(start, 0);
  const deque: string[] = [start];
  while (deque.length > 0) {
    // Dijkstra over 0/1 weights; small enough to pick the nearest each time.
    deque.sort((a, b) => (depth.get(a) as number) - (depth.get(b) as number));
    const key = deque.shift()!;
    const here = depth.get(key) as number;
    for (const { key: target, clicks } of next(planOf(key))) {
      const known = depth.get(target);
      if (known === undefined || (known !== null && known > here + clicks)) {
        depth.set(target, here + clicks);
        deque.push(target);
      }
    }
  }
  // Sitemap URLs on the host (robots-allowed) the links did not reach, and what they lead to: no depth.
  const inSitemap = new Set(sitemap.flatMap((loc) => (crawlKey(loc) === null ? [] : [crawlKey(loc)!])));
  const unlinked = [...inSitemap].filter((key) => !depth.has(key));
  for (const key of unlinked) depth.set(key, null);
  while (unlinked.length > 0) {
    for (const { key } of next(planOf(unlinked.shift()!))) {
      if (!depth.has(key)) {
        depth.set(key, null);
        unlinked.push(key);
      }
    }
  }

  const keys = [...depth.keys()];
  const known = new Set(keys);
  const pages = new Map<string, ModelPage>();
  for (const key of keys) {
    const page = planOf(key);
    const links = page.kind === 'html' ? page.links : [];
    const onHost = (href: string) => {
      const url = abs(href);
      url.hash = '';
      return url.host === host ? url.href : null;
    };
    // A page's links to URLs the crawl does not know (robots-disallowed ones) count for nothing.
    const linksOut = [...new Set(links.flatMap(({ href }) => (onHost(href) !== null && known.has(onHost(href)!) ? [onHost(href)!] : [])))];
    const nofollowOut = [...new Set(links.flatMap(({ href, rel }) => (rel?.split(/\s+/).includes('nofollow') && onHost(href) !== null && known.has(onHost(href)!) ? [onHost(href)!] : [])))];
    pages.set(key, {
      url: key,
      plan: page,
      depth: depth.get(key)!,
      inSitemap: inSitemap.has(key),
      statusCode: page.kind === 'html' ? 200 : page.kind === 'reset' ? null : page.status,
      error: page.kind === 'reset' ? ANY_ERROR : null,
      redirectTarget: page.kind === 'redirect' ? (crawlKey(page.location) ?? abs(page.location).href) : null,
      chain: null,
      linksOut,
      nofollowOut,
    });
  }
  // Redirects followed through the answers of each URL on the way.
  for (const page of pages.values()) {
    if (page.redirectTarget === null) continue;
    const seen = new Set([page.url]);
    let current = page;
    let hops = 0;
    for (;;) {
      if (current.redirectTarget === null) {
        page.chain = { end: current.url, hops, loop: false, finalStatusCode: current.statusCode };
        break;
      }
      hops++;
      const following = pages.get(current.redirectTarget);
      if (following === undefined) {
        page.chain = { end: current.redirectTarget, hops, loop: false, finalStatusCode: null };
        break;
      }
      if (seen.has(following.url)) {
        page.chain = { end: following.url, hops, loop: true, finalStatusCode: null };
        break;
      }
      seen.add(following.url);
      current = following;
    }
  }

  const all = [...pages.values()];
  const html = (page: ModelPage): page is ModelPage & { plan: HtmlPlan } => page.plan.kind === 'html';
  const finalStatus = (page: ModelPage) => (page.chain ? page.chain.finalStatusCode : page.statusCode);
  const linkers = new Map<string, string[]>(all.map((page) => [page.url, []]));
  for (const page of all) for (const target of page.linksOut) linkers.get(target)!.push(page.url);
  const sorted = (urls: string[]) => [...urls].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const canonicalOf = (page: ModelPage & { plan: HtmlPlan }) => (page.plan.canonical ? `${origin}${page.plan.canonical}` : null);
  const indexable = (page: ModelPage) => html(page) && !page.plan.noindex && (canonicalOf(page) === null || canonicalOf(page) === page.url);
  const notIndexable = (url: string): string | null => {
    if (disallowed(new URL(url).pathname)) return 'blocked by robots.txt';
    const page = pages.get(url);
    if (page === undefined) return null;
    if (page.chain?.loop) return 'redirect loop';
    if (page.chain) return `redirects to ${page.chain.end}`;
    if (page.statusCode === null) return 'unreachable';
    if (page.statusCode !== 200) return String(page.statusCode);
    if (html(page) && page.plan.noindex) return 'noindex';
    return null;
  };

  const linked = (page: ModelPage) => linkers.get(page.url)!;
  const broken = all
    .filter((page) => linked(page).length > 0 && (page.statusCode === null ? page.error !== null : (finalStatus(page) ?? 0) >= 400))
    .map((page) => ({ url: page.url, status_code: finalStatus(page) ?? page.statusCode, error: page.error, linked_from: sorted(linked(page)), linked_from_count: linked(page).length }));
  const redirected = all
    .filter((page) => linked(page).length > 0 && page.chain !== null && !page.chain.loop)
    .map((page) => ({ url: page.url, status_code: page.statusCode, redirect_target: page.chain!.end, linked_from: sorted(linked(page)), linked_from_count: linked(page).length }));
  const chains = all
    .filter((page) => page.chain !== null && (page.chain.hops >= 2 || page.chain.loop))
    .map((page) => ({ url: page.url, redirect_target: page.chain!.end, hops: page.chain!.hops, loop: page.chain!.loop, linked_from: sorted(linked(page)), linked_from_count: linked(page).length }));
  const groups = (key: string, valueOf: (page: ModelPage & { plan: HtmlPlan }) => string) => {
    const byValue = new Map<string, string[]>();
    for (const page of all) {
      if (!html(page) || !indexable(page)) continue;
      const value = valueOf(page);
      byValue.set(value, [...(byValue.get(value) ?? []), page.url]);
    }
    return [...byValue].filter(([, urls]) => urls.length >= 2).map(([value, urls]) => ({ [key]: value, pages: sorted(urls), page_count: urls.length }));
  };
  const pointing = new Map<string, string[]>();
  for (const page of all) {
    if (!html(page) || canonicalOf(page) === null) continue;
    pointing.set(canonicalOf(page)!, [...(pointing.get(canonicalOf(page)!) ?? []), page.url]);
  }
  const canonicals = [...pointing].flatMap(([canonical, urls]) => {
    const reason = notIndexable(canonical);
    return reason === null ? [] : [{ canonical, reason, pages: sorted(urls), page_count: urls.length }];
  });
  const hreflang: Record<string, unknown>[] = [];
  for (const page of all) {
    if (!html(page)) continue;
    const seen = new Set<string>();
    for (const { lang, href } of page.plan.hreflang ?? []) {
      const target = `${origin}${href}`;
      const alternate = pages.get(target);
      if (target === page.url || alternate === undefined || !html(alternate)) continue;
      const key = `${lang.toLowerCase()} ${target}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!(alternate.plan.hreflang ?? []).some((back) => `${origin}${back.href}` === page.url)) hreflang.push({ page: page.url, alternate: target, lang: lang.toLowerCase() });
    }
  }
  const startPage = pages.get(start)!;
  const entrances = new Set([start, startPage.redirectTarget]);
  const orphans = all
    .filter((page) => page.inSitemap && !entrances.has(page.url) && !all.some((other) => other !== page && other.linksOut.includes(page.url)))
    .map((page) => ({ url: page.url }));
  const sitemapEntries = all.flatMap((page) => {
    if (!page.inSitemap) return [];
    const canonical = html(page) ? canonicalOf(page) : null;
    const reason = notIndexable(page.url) ?? (canonical !== null && canonical !== page.url ? `canonicalised to ${canonical}` : null);
    return reason === null ? [] : [{ url: page.url, reason }];
  });
  const deep = all.filter((page) => page.depth !== null && page.depth > 4).map((page) => ({ url: page.url, depth: page.depth }));
  const nofollow = all.flatMap((page) => page.nofollowOut.map((target) => ({ page: page.url, target })));

  const found = <T extends Record<string, unknown>>(items: T[]) => ({ count: items.length, items });
  const issues: ExpectedCrawl['issues'] = {
    broken_links: found(broken),
    redirected_links: found(redirected),
    redirect_chains: found(chains),
    duplicate_titles: found(groups('title', (page) => page.plan.title)),
    duplicate_descriptions: found(groups('description', (page) => page.plan.description)),
    // The text's hash is the crawler's own; the groups are what the plan says.
    duplicate_content: found(groups('text', (page) => JSON.stringify([page.plan.heading, page.plan.text, page.plan.links.map(({ href }) => labelOf(href))])).map(({ pages: urls, page_count }) => ({ pages: urls, page_count }))),
    canonical_targets: found(canonicals),
    hreflang_reciprocity: found(hreflang),
    orphan_pages: found(orphans),
    sitemap_entries: found(sitemapEntries),
    deep_pages: found(deep),
    internal_nofollow: found(nofollow),
  };

  const expectedPages = new Map<string, ExpectedPage>(
    all.map((page) => [
      page.url,
      {
        url: page.url,
        status_code: page.statusCode,
        depth: page.depth,
        html: html(page),
        inlinks: all.filter((other) => other !== page && other.linksOut.includes(page.url)).length,
        error: page.error,
        redirect_target: page.redirectTarget,
      },
    ]),
  );
  return {
    pagesFound: all.length,
    pagesCrawled: all.filter(html).length,
    pagesFailed: all.filter((page) => page.error !== null).length,
    pages: expectedPages,
    issues,
  };
}
