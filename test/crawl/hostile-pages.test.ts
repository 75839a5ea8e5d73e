// A crawl through a site that works against it: a redirect loop, pages larger than the size cap (with
// and without Content-Length), binary files, links to another host, a page that never answers; and
// start pages that cannot be crawled at all. The crawl records each and goes on; it never reads or
// analyses what is not HTML, never leaves the host, and fails only when no HTML page could be crawled.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { refusedUrl, type Account } from '../support/api-fixtures.ts';
import { html, text, type Handler } from '../support/site-server.ts';
import {
  crawlIssues,
  crawlPages,
  isAuxPath,
  projectReports,
  redirect,
  simplePage,
  startCrawl,
  startRecordingSite,
  untilCrawlEnded,
  type RecordingSite,
} from '../support/crawl-fixtures.ts';

const MAX_PAGE_BYTES = 32 * 1024;
const FETCH_TIMEOUT_MS = 2000;

/** A body of `bytes` bytes of `contentType`, sent with its Content-Length. */
function sized(bytes: number, contentType: string): Handler {
  const payload = Buffer.alloc(bytes, contentType.startsWith('text/html') ? 'a' : 0x89);
  if (contentType.startsWith('text/html')) payload.write('<!doctype html><title>Huge</title><p>');
  return (_request, response) => {
    response.writeHead(200, { 'content-type': contentType, 'content-length': String(bytes) });
    response.end(payload);
  };
}

/** An HTML page sent in chunks without Content-Length, growing past the cap. */
const chunkedHuge: Handler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.write('<!doctype html><title>Huge, chunked</title><p>');
  let sent = 0;
  const more = () => {
    if (response.destroyed || sent > MAX_PAGE_BYTES * 4) return void response.end('</p>');
    sent += 8 * 1024;
    response.write('b'.repeat(8 * 1024), more);
  };
  more();
};

describe.each(testDialects())('a crawl through hostile pages [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  let site: RecordingSite;
  let elsewhere: RecordingSite;
  const silent: ServerResponse[] = [];

  beforeAll(async () => {
    elsewhere = await startRecordingSite({ '/': html(simplePage('Another host', [])) });
    site = await startRecordingSite();
    const otherName = site.origin.replace('127.0.0.1', 'localhost');
    site.route('/', html(simplePage('Home of the hostile site', [
      '/loop/a', '/huge', '/huge-chunked', '/image.png', '/blob.bin', '/silent', '/ok',
      elsewhere.url('/'), elsewhere.url('/page'), `${otherName}/same-server-other-name`,
    ])));
    site.route('/loop/a', redirect('/loop/b', 302));
    site.route('/loop/b', redirect(site.url('/loop/a')));
    site.route('/huge', sized(MAX_PAGE_BYTES * 3, 'text/html; charset=utf-8'));
    site.route('/huge-chunked', chunkedHuge);
    site.route('/image.png', sized(300 * 1024, 'image/png'));
    site.route('/blob.bin', sized(300 * 1024, 'application/octet-stream'));
    // Headers never come: the fetch deadline ends it.
    site.route('/silent', (_request, response) => void silent.push(response));
    site.route('/ok', html(simplePage('The one ordinary page', ['/'])));
    site.route('/same-server-other-name', html(simplePage('Reached under another name', [])));
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 2, maxPageBytes: MAX_PAGE_BYTES, fetchTimeoutMs: FETCH_TIMEOUT_MS });
    account = await t.createAccount('hostile');
  });

  afterAll(async () => {
    await t?.close();
    for (const response of silent) response.destroy();
    await site?.close();
    await elsewhere?.close();
  });

  it('records loops, oversized pages, binaries and a silent page, goes on, and never leaves the host', async () => {
    const queued = await startCrawl(t, account, { url: site.url('/'), sitemap: 0, external: 0 });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    // /, /ok analysed; /huge, /huge-chunked too large and /silent unanswered failed.
    expect({ found: crawl.pages_found, crawled: crawl.pages_crawled, failed: crawl.pages_failed }).toEqual({ found: 9, crawled: 2, failed: 3 });

    const rows = Object.fromEntries((await crawlPages(t, account, queued.id)).map((page) => [new URL(page.url).pathname, page]));
    expect(Object.keys(rows).sort()).toEqual(['/', '/blob.bin', '/huge', '/huge-chunked', '/image.png', '/loop/a', '/loop/b', '/ok', '/silent']);
    for (const path of ['/huge', '/huge-chunked']) {
      expect(rows[path], path).toMatchObject({ status_code: 200, report_id: null, score: null });
      expect(rows[path].error, path).toBe('The page is larger than 32 KiB (PAGEGRADE_MAX_PAGE_BYTES).');
    }
    expect(rows['/silent']).toMatchObject({ status_code: null, report_id: null });
    expect(rows['/silent'].error).toMatch(new RegExp(`did not answer within ${FETCH_TIMEOUT_MS} ms`));
    expect(rows['/image.png']).toMatchObject({ status_code: 200, content_type: 'image/png', report_id: null, error: null, score: null });
    expect(rows['/blob.bin']).toMatchObject({ status_code: 200, content_type: 'application/octet-stream', report_id: null, error: null, score: null });
    expect(rows['/loop/a']).toMatchObject({ status_code: 302, redirect_target: site.url('/loop/b'), report_id: null });
    expect(rows['/loop/b']).toMatchObject({ status_code: 301, redirect_target: site.url('/loop/a'), report_id: null });
    expect(rows['/ok'].report_id).toEqual(expect.any(Number));

    // Only the HTML pages read in full became reports.
    const reports = await projectReports(t, account, crawl.project);
    expect(reports.map((report) => new URL(report.url).pathname).sort()).toEqual(['/', '/ok']);

    const issues = await crawlIssues(t, account, queued.id);
    const from = [site.url('/')];
    expect(issues.redirect_chains.items).toEqual([
      { url: site.url('/loop/a'), redirect_target: site.url('/loop/a'), hops: 2, loop: true, linked_from: from, linked_from_count: 1 },
      { url: site.url('/loop/b'), redirect_target: site.url('/loop/b'), hops: 2, loop: true, linked_from: [], linked_from_count: 0 },
    ]);
    // The page that never answered is a broken link; a loop is not a redirect to link to instead.
    expect(issues.broken_links.items).toEqual([{ url: site.url('/silent'), status_code: null, error: rows['/silent'].error, linked_from: from, linked_from_count: 1 }]);
    expect(issues.redirected_links).toBeUndefined();

    // Each URL asked for once; the other host and the other name for this one never.
    const counts = site.counts();
    for (const path of Object.keys(rows)) expect(counts.get(path), path).toBe(1);
    expect([...counts.keys()].filter((path) => !(path in rows) && !isAuxPath(path))).toEqual([]);
    expect(elsewhere.log).toEqual([]);
  });

  it('an unreachable start page: the crawl fails with the reason', async () => {
    const queued = await startCrawl(t, account, { url: await refusedUrl('/start') });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl).toMatchObject({ state: 'failed', pages_found: 1, pages_crawled: 0, pages_failed: 1, score: null, result: null });
    expect(crawl.error).toMatch(/^No HTML page could be crawled: \S/);
    const [row] = await crawlPages(t, account, queued.id);
    expect(row).toMatchObject({ status_code: null, report_id: null });
    expect(crawl.error).toContain(row.error);
  });

  it('a start URL that redirects on the host: the crawl starts from where it lands; off the host: it fails', async () => {
    site.route('/old-start', redirect('/new-home'));
    site.route('/new-home', html(simplePage('Where the start URL lands', ['/new-home/a'])));
    site.route('/new-home/a', html(simplePage('A page below the new home', ['/new-home'])));
    const moved = await untilCrawlEnded(t, account, (await startCrawl(t, account, { url: site.url('/old-start'), sitemap: 0 })).id);
    expect(moved).toMatchObject({ state: 'done', pages_found: 3, pages_crawled: 2, pages_failed: 0 });
    const rows = Object.fromEntries((await crawlPages(t, account, moved.id)).map((page) => [new URL(page.url).pathname, page]));
    expect(rows['/old-start']).toMatchObject({ status_code: 301, depth: 0, redirect_target: site.url('/new-home'), report_id: null });
    expect(rows['/new-home']).toMatchObject({ status_code: 200, depth: 0, report_id: expect.any(Number) });
    expect(rows['/new-home/a']).toMatchObject({ status_code: 200, depth: 1, report_id: expect.any(Number) });

    site.route('/leaving-start', redirect(elsewhere.url('/')));
    const left = await untilCrawlEnded(t, account, (await startCrawl(t, account, { url: site.url('/leaving-start'), sitemap: 0 })).id);
    expect(left).toMatchObject({ state: 'failed', pages_crawled: 0 });
    expect(left.error).toMatch(/301/);
    expect(elsewhere.log).toEqual([]);
  });

  it('a start page that answers 404, or is no HTML: the crawl fails saying so', async () => {
    site.route('/gone-start', html('<!doctype html><title>Gone</title>', 404));
    site.route('/file-start', text('just text'));
    const gone = await untilCrawlEnded(t, account, (await startCrawl(t, account, { url: site.url('/gone-start'), sitemap: 0 })).id);
    expect(gone).toMatchObject({ state: 'failed', pages_crawled: 0 });
    expect(gone.error).toMatch(/404/);
    const file = await untilCrawlEnded(t, account, (await startCrawl(t, account, { url: site.url('/file-start'), sitemap: 0 })).id);
    expect(file).toMatchObject({ state: 'failed', pages_crawled: 0 });
    expect(file.error).toMatch(/^No HTML page could be crawled/);
  });
});
