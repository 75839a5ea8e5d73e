// A crawl of a generated loopback site of 300 URLs (test/support/generated-site.ts) with every site
// check's defect planted beside clean counterparts: every issue's count and items, the page counts,
// each URL's row, each HTML page's report and run, and the site's own request log (each URL asked for
// exactly once) are asserted exactly against what the site's plan says a crawl must find. The second
// block holds small crawls of the rules a big site does not pin down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, type Account, type Body } from '../support/api-fixtures.ts';
import { ANY_ERROR, SITE_CHECK_IDS, startGeneratedSite, type GeneratedSite, type SiteCheckId } from '../support/generated-site.ts';
import {
  crawlIssues,
  crawlPages,
  delayed,
  isAuxPath,
  projectReports,
  simplePage,
  startCrawl,
  startRecordingSite,
  untilCrawlEnded,
  type RecordingSite,
} from '../support/crawl-fixtures.ts';
import { html, text } from '../support/site-server.ts';

/** JSON with keys in order, so equal objects compare equal whatever order their keys were made in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1))) : inner,
  );
}

/** Items as a sorted list of canonical JSON: an error sentence stands as ANY_ERROR, a content hash is left out. */
function normalisedItems(id: string, items: Record<string, unknown>[]): string[] {
  return items
    .map((item) => {
      const copy: Record<string, unknown> = { ...item };
      if (typeof copy.error === 'string' && copy.error.length > 0) copy.error = ANY_ERROR;
      if (id === 'duplicate_content') delete copy.text_hash;
      return canonicalJson(copy);
    })
    .sort();
}

/** What a reader checks an item by: its URL's path, a group's shared value, a pair of paths. */
function keyOf(id: SiteCheckId, item: Body): string {
  const path = (url: string) => new URL(url).pathname;
  switch (id) {
    case 'duplicate_titles':
      return item.title;
    case 'duplicate_descriptions':
      return item.description;
    case 'duplicate_content':
      return item.pages.map(path).join(' ');
    case 'canonical_targets':
      return path(item.canonical);
    case 'hreflang_reciprocity':
      return `${path(item.page)} -> ${path(item.alternate)}`;
    case 'internal_nofollow':
      return `${path(item.page)} -> ${path(item.target)}`;
    default:
      return path(item.url);
  }
}

describe.each(testDialects())('a crawl of a generated 300-URL site [%s]', (dialect) => {
  let t: TestApp;
  let g: GeneratedSite;
  let account: Account;

  beforeAll(async () => {
    g = await startGeneratedSite();
    t = await startTestApp(dialect, { workers: 5, crawlConcurrency: 4 });
    account = await t.createAccount('generated');
  });

  afterAll(async () => {
    await t?.close();
    await g?.close();
  });

  it('the plan plants what it says (the expected findings name exactly the planted URLs)', () => {
    for (const id of SITE_CHECK_IDS) {
      expect(g.expected.issues[id].items.map((item) => keyOf(id, item)).sort(), id).toEqual([...g.planted[id]].sort());
      expect(g.expected.issues[id].count, id).toBe(g.planted[id].length);
    }
    expect(g.expected.pages.size).toBeGreaterThanOrEqual(290);
    expect(g.expected.pagesCrawled).toBeGreaterThanOrEqual(280);
  });

  it('finds every planted defect exactly, flags none of the clean pages, and asks for each URL once', { timeout: 180_000 }, async () => {
    const queued = await startCrawl(t, account, { url: g.start, max_pages: 1000, external: 0 });
    const crawl = await untilCrawlEnded(t, account, queued.id, 150_000);
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    const { expected } = g;
    expect({ found: crawl.pages_found, crawled: crawl.pages_crawled, failed: crawl.pages_failed }).toEqual({
      found: expected.pagesFound,
      crawled: expected.pagesCrawled,
      failed: expected.pagesFailed,
    });

    // Every issue, count and items; checks that find nothing are left out of the list.
    const issues = await crawlIssues(t, account, queued.id);
    for (const id of SITE_CHECK_IDS) {
      const want = expected.issues[id];
      const got = issues[id];
      if (want.count === 0) {
        expect(got, id).toBeUndefined();
        continue;
      }
      expect(got, `${id} missing`).toBeDefined();
      expect({ id, count: got.count }).toEqual({ id, count: want.count });
      expect(normalisedItems(id, got.items), id).toEqual(normalisedItems(id, want.items));
    }
    for (const item of issues.duplicate_content.items) expect(item.text_hash).toEqual(expect.any(String));
    const byImportance = { high: 0, medium: 0, low: 0 } as Record<string, number>;
    for (const issue of Object.values(issues)) byImportance[issue.importance] += issue.count;
    expect(crawl.issues).toEqual(byImportance);
    // A high-importance finding (broken links, canonicals) keeps the site below good.
    expect(crawl.result).not.toBe('good');

    // Every URL's row: status, click depth, inlinks, its report, its error.
    const pages = await crawlPages(t, account, queued.id);
    expect(pages.map((page) => page.url).sort()).toEqual([...expected.pages.keys()].sort());
    const mismatches = pages.flatMap((page) => {
      const want = expected.pages.get(page.url)!;
      const got = {
        url: page.url,
        status_code: page.status_code,
        depth: page.depth,
        html: page.report_id !== null,
        inlinks: page.inlinks,
        error: page.error === null ? null : ANY_ERROR,
        redirect_target: page.redirect_target,
      };
      return canonicalJson(got) === canonicalJson(want) ? [] : [{ got, want }];
    });
    expect(mismatches).toEqual([]);
    const reset = pages.find((page) => page.url === g.url('/gone/reset'));
    expect(reset.error).toMatch(/\w+ \w+/);
    for (const path of ['/files/brochure.pdf', '/files/photo.png']) {
      const file = pages.find((page) => page.url === g.url(path));
      expect(file, path).toMatchObject({ status_code: 200, report_id: null, score: null });
      expect(file.content_type).toMatch(path.endsWith('.pdf') ? /^application\/pdf/ : /^image\/png/);
    }

    // The site: each URL of the crawl asked for once, nothing it must not fetch, nothing else but
    // robots.txt and the sitemap (read at the start and by the first analysis) and the first analysis'
    // own look at the origin (favicon, llms.txt, a 404 probe).
    const counts = g.site.counts();
    const crawledPaths = new Set([...expected.pages.keys()].map((url) => new URL(url).pathname));
    const notOnce = [...crawledPaths].filter((path) => counts.get(path) !== 1).map((path) => `${path}: ${counts.get(path) ?? 0}`);
    expect(notOnce).toEqual([]);
    for (const path of g.neverRequested) expect(counts.get(path), path).toBeUndefined();
    const others = [...counts].filter(([path]) => !crawledPaths.has(path));
    expect(others.filter(([path]) => !isAuxPath(path)), 'requests outside the crawl').toEqual([]);
    for (const [path, count] of others) expect(count, path).toBeLessThanOrEqual(g.auxPaths.includes(path) ? 2 : 1);

    // Each HTML page has one report in the project, with one run, made by the crawl.
    const reports = await projectReports(t, account, crawl.project);
    const htmlUrls = [...expected.pages.values()].filter((page) => page.html).map((page) => page.url).sort();
    expect(reports.map((report) => report.url).sort()).toEqual(htmlUrls);
    expect(reports.filter((report) => report.runs_count !== 1 || report.state !== 'done')).toEqual([]);
    const reportIds = new Map(pages.filter((page) => page.report_id !== null).map((page) => [page.url, page.report_id]));
    expect(new Map(reports.map((report) => [report.url, report.id]))).toEqual(reportIds);
    const triggers = new Set<string>();
    for (let i = 0; i < reports.length; i += 25) {
      const batch = await Promise.all(reports.slice(i, i + 25).map((report) => call(t, account, 'GET', `/api/v1/reports/${report.id}/runs`)));
      for (const response of batch) {
        const runs = body(response).data;
        expect(runs).toHaveLength(1);
        triggers.add(runs[0].trigger);
      }
    }
    expect([...triggers]).toEqual(['crawl']);
  });
});

// Found by this suite; each test states what docs/checks.md or docs/crawls.md asks and fails until the crawler does it.
describe.each(testDialects())('crawl bugs found by the generated-site suite [%s]', (dialect) => {
  let t: TestApp;
  let site: RecordingSite;
  let account: Account;

  beforeAll(async () => {
    site = await startRecordingSite();
    t = await startTestApp(dialect, { workers: 3, crawlConcurrency: 2 });
    account = await t.createAccount('bugs');
  });

  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  // docs/checks.md: sitemap_entries flags a sitemap URL robots.txt blocks; the crawl keeps such URLs for the
  // site checks without ever requesting them.
  it('a sitemap URL blocked by robots.txt is reported by sitemap_entries', async () => {
    site.route('/robots.txt', text(`User-agent: *\nDisallow: /private/\nSitemap: ${site.url('/sitemap.xml')}\n`));
    site.route('/sitemap.xml', text(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url('/')}</loc></url><url><loc>${site.url('/private/listed')}</loc></url></urlset>`,
      'application/xml',
    ));
    site.route('/', html(simplePage('The start page of the blocked sitemap site', [])));
    site.route('/private/listed', html(simplePage('A listed page robots.txt forbids', [])));
    const queued = await startCrawl(t, account, { url: site.url('/') });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl.state).toBe('done');
    expect(site.countOf('/private/listed')).toBe(0);
    const issues = await crawlIssues(t, account, queued.id);
    expect(issues.sitemap_entries?.items).toEqual([{ url: site.url('/private/listed'), reason: 'blocked by robots.txt' }]);
  });

  // Sitemap-only URLs wait until no linked page is being fetched, so a page the sitemap also lists is
  // reached by its click path first and keeps its depth (docs/api.md, crawl pages' `depth`: null only for sitemap-only URLs).
  it('a page linked only from a sitemap-listed section keeps its click depth however fast the start page is', async () => {
    site.route('/robots.txt', text(`User-agent: *\nSitemap: ${site.url('/sitemap.xml')}\n`));
    site.route('/sitemap.xml', text(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url('/section/')}</loc></url></urlset>`,
      'application/xml',
    ));
    // The start page answers slowly: the second work job takes the sitemap's section meanwhile.
    site.route('/', delayed(600, html(simplePage('A slow start page', ['/section/']))));
    site.route('/section/', html(simplePage('A section the sitemap lists', ['/', '/section/a1'])));
    site.route('/section/a1', html(simplePage('An article of the section', ['/', '/section/'])));
    const queued = await startCrawl(t, account, { url: site.url('/') });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl.state).toBe('done');
    const depths = Object.fromEntries((await crawlPages(t, account, queued.id)).map((page) => [new URL(page.url).pathname, page.depth]));
    expect(depths).toEqual({ '/': 0, '/section/': 1, '/section/a1': 2 });
  });

  // A sitemap-only page is fetched, and so are the pages only it leads to: they have no click depth,
  // and max_depth bounds only the pages that have one (every link of every analysed page is checked).
  it('max_depth bounds the linked pages, not those reached through a sitemap-only page', async () => {
    site.route('/robots.txt', text(`User-agent: *\nSitemap: ${site.url('/sitemap.xml')}\n`));
    site.route('/sitemap.xml', text(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url('/depth/listed')}</loc></url></urlset>`,
      'application/xml',
    ));
    site.route('/depth/', html(simplePage('The start page of the depth-bounded crawl', ['/depth/linked'])));
    site.route('/depth/linked', html(simplePage('One click from the start page', [])));
    site.route('/depth/listed', html(simplePage('Listed in the sitemap only', ['/depth/deeper'])));
    site.route('/depth/deeper', html(simplePage('Linked from the sitemap page', ['/depth/deepest'])));
    site.route('/depth/deepest', html(simplePage('Two links past the sitemap page', [])));
    const queued = await startCrawl(t, account, { url: site.url('/depth/'), max_depth: 0 });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl.state).toBe('done');
    expect(site.countOf('/depth/linked')).toBe(0);
    expect(site.countOf('/depth/listed')).toBe(1);
    expect({ deeper: site.countOf('/depth/deeper'), deepest: site.countOf('/depth/deepest') }).toEqual({ deeper: 1, deepest: 1 });
    const depths = Object.fromEntries((await crawlPages(t, account, crawl.id)).map((page) => [new URL(page.url).pathname, page.depth]));
    expect(depths).toMatchObject({ '/depth/': 0, '/depth/listed': null, '/depth/deeper': null, '/depth/deepest': null });
    expect(crawl.limit_reached).toBe(true);
  });

  // href="/gone#" leads to /gone: the link is matched to its URL's row (broken link, inlinks, orphans).
  it('a link with an empty fragment counts as a link to its page', async () => {
    site.route('/robots.txt', text(`User-agent: *\nSitemap: ${site.url('/sitemap.xml')}\n`));
    site.route('/sitemap.xml', text(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url('/fragment/listed')}</loc></url></urlset>`,
      'application/xml',
    ));
    site.route('/fragment/', html(simplePage('Links written with an empty fragment', ['/fragment/gone#', '/fragment/listed#'])));
    site.route('/fragment/listed', html(simplePage('A listed page linked with an empty fragment', [])));
    const queued = await startCrawl(t, account, { url: site.url('/fragment/') });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl.state).toBe('done');
    const issues = await crawlIssues(t, account, queued.id);
    const inlinks = Object.fromEntries((await crawlPages(t, account, queued.id)).map((page) => [new URL(page.url).pathname, page.inlinks]));
    expect({
      broken: issues.broken_links?.items.map((item: Body) => [item.url, item.linked_from]),
      orphans: issues.orphan_pages?.count ?? 0,
      inlinks,
    }).toEqual({
      broken: [[site.url('/fragment/gone'), [site.url('/fragment/')]]],
      orphans: 0,
      inlinks: { '/fragment/': 0, '/fragment/gone': 1, '/fragment/listed': 1 },
    });
  });
});
