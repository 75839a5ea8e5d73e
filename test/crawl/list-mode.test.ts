// List mode (docs/crawls.md, "List mode"): a crawl given `urls` fetches exactly those (each host's
// robots.txt obeyed), analyses each as a report of its own host's project, follows no link, and still
// checks its pages' links: an unlisted URL of a listed host once (GET, not analysed), another host's
// as an external link. The 422s of a list, and `pagegrade crawl --urls <file>`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectInvalid, type Account, type Body } from '../support/api-fixtures.ts';
import { html } from '../support/site-server.ts';
import {
  crawlIssues,
  crawlPages,
  everyRow,
  isAuxPath,
  maxOverlap,
  projectReports,
  redirect,
  simplePage,
  startCrawl,
  startRecordingSite,
  untilCrawlEnded,
  type RecordingSite,
} from '../support/crawl-fixtures.ts';
import { LOOPBACK } from '../cli/run-binary.ts';
import { runInProcess } from '../cli/run-cli.ts';

/** The requests a site answered for the crawl's URLs (not robots.txt nor the origin probes), by path. */
const pageRequests = (site: RecordingSite) => new Map([...site.counts()].filter(([path]) => !isAuxPath(path)));

/** Crawl-delay of the second host, in seconds: its requests are spaced by it, the first host's are not. */
const DELAY_SECONDS = 0.2;

describe.each(testDialects())('a list crawl [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  let a: RecordingSite;
  let b: RecordingSite;
  let elsewhere: RecordingSite;
  let crawl: Body;

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 2 });
    account = await t.createAccount('list');
    elsewhere = await startRecordingSite({ '/ext': html(simplePage('Elsewhere', [])) });
    b = await startRecordingSite({ '/robots.txt': (_request, response) => void response.end(`User-agent: *\nCrawl-delay: ${DELAY_SECONDS}\n`) });
    a = await startRecordingSite({
      '/robots.txt': (_request, response) => void response.end('User-agent: *\nDisallow: /private\n'),
      '/one': html(simplePage('One', ['/two', '/linked', '/gone', '/moved', '/skip-me', b.url('/b1'), b.url('/b-gone'), elsewhere.url('/ext')])),
      '/two': html(simplePage('Two', ['/one', '/linked'])),
      '/private': html(simplePage('Private', ['/one'])),
      // Linked, not listed: fetched once, never analysed, its links never followed.
      '/linked': html(simplePage('Linked', ['/deeper'])),
      '/deeper': html(simplePage('Deeper', [])),
      '/moved': redirect('/two'),
    });
    b.route('/b1', html(simplePage('B one', ['/b-linked', a.url('/one')])));
    b.route('/b-linked', html(simplePage('B linked', [])));
    const urls = [a.url('/one'), `${a.url('/two')}?utm_source=list`, a.url('/private'), b.url('/b1'), `${a.url('/one')}#again`, a.url('/two')].join('\n');
    const started = await startCrawl(t, account, { urls, strip_params: 'utm_*', max_pages: 4, max_depth: 0, exclude: '/skip-me' });
    crawl = await untilCrawlEnded(t, account, started.id);
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([a?.close(), b?.close(), elsewhere?.close()]);
  });

  it('is a list crawl of the first URL\'s host, done', () => {
    expect(crawl).toMatchObject({ state: 'done', mode: 'list', url: a.url('/one'), project: new URL(a.origin).host, sitemap: 0 });
  });

  it('fetches exactly the listed URLs and the unlisted ones their pages link to on the listed hosts, once each', () => {
    expect(pageRequests(a)).toEqual(new Map([['/one', 1], ['/two', 1], ['/linked', 1], ['/gone', 1], ['/moved', 1]]));
    expect(pageRequests(b)).toEqual(new Map([['/b1', 1], ['/b-linked', 1], ['/b-gone', 1]]));
    // Every request to a listed host is counted against the one budget.
    expect(crawl.requests).toBe(a.log.length + b.log.length);
  });

  it('leaves a listed URL robots.txt disallows unvisited, with reason robots', async () => {
    const unvisited = await everyRow(async (path) => body(await call(t, account, 'GET', path)), `/api/v1/crawls/${crawl.id}/pages?state=unvisited`);
    // /skip-me is excluded: include/exclude judge the linked URLs (max_depth 0 does not apply).
    expect(unvisited.map((row) => [row.url, row.reason])).toEqual([[a.url('/private'), 'robots'], [a.url('/skip-me'), 'excluded']]);
    expect(crawl.pages_unvisited).toBe(2);
    // The listed URL robots.txt disallows is no bound.
    expect(crawl.limit_reached).toBe(false);
  });

  it('analyses each listed page as a report of its own host\'s project, and no other', async () => {
    const pages = new Map((await crawlPages(t, account, crawl.id)).map((row) => [row.url, row]));
    expect([...pages.keys()].sort()).toEqual(
      [a.url('/one'), a.url('/two'), a.url('/linked'), a.url('/gone'), a.url('/moved'), b.url('/b1'), b.url('/b-linked'), b.url('/b-gone')].sort(),
    );
    for (const url of [a.url('/one'), a.url('/two'), b.url('/b1')]) expect(pages.get(url)).toMatchObject({ depth: 0, report_id: expect.any(Number) });
    expect(pages.get(a.url('/linked'))).toMatchObject({ status_code: 200, depth: 1, report_id: null, title: null });
    expect(crawl.pages_crawled).toBe(3);
    expect((await projectReports(t, account, new URL(a.origin).host)).map((report) => report.url).sort()).toEqual([a.url('/one'), a.url('/two')]);
    expect((await projectReports(t, account, new URL(b.origin).host)).map((report) => report.url)).toEqual([b.url('/b1')]);
  });

  it('judges the linked URLs: broken and redirected links on the listed hosts, the rest as external links', async () => {
    const issues = await crawlIssues(t, account, crawl.id);
    const broken = issues.broken_links.items.map((item: Body) => `${item.url} ${item.status_code}`).sort();
    expect(broken).toEqual([`${a.url('/gone')} 404`, `${b.url('/b-gone')} 404`].sort());
    expect(issues.redirected_links.items).toMatchObject([{ url: a.url('/moved'), redirect_target: a.url('/two') }]);
    expect(pageRequests(elsewhere)).toEqual(new Map([['/ext', 1]]));
    expect(elsewhere.countOf('/robots.txt')).toBe(0);
    expect(crawl.external_checked).toBe(1);
  });

  it('is polite per host: its own Crawl-delay on each, at most PAGEGRADE_CRAWL_CONCURRENCY at once', () => {
    const starts = b.log.map((entry) => entry.startedAt);
    const gaps = starts.slice(1).map((start, index) => start - starts[index]);
    // The delay is kept by the claims' clock, the site sees each gap less the difference of two
    // latencies (tens of milliseconds on a loaded machine; test/crawl/politeness.test.ts): half the
    // delay of tolerance per gap, over all the gaps together the delay less one latency.
    const shown = `gaps between requests to the second host: ${gaps.map(Math.round).join(', ')} ms`;
    expect(Math.min(...gaps), shown).toBeGreaterThanOrEqual(DELAY_SECONDS * 500);
    expect(starts.at(-1)! - starts[0], shown).toBeGreaterThanOrEqual(gaps.length * DELAY_SECONDS * 1000 - 150);
    expect(maxOverlap(a.log)).toBeLessThanOrEqual(2);
  });
});

describe('what a list may be', () => {
  let t: TestApp;
  let guarded: TestApp;
  let account: Account;

  beforeAll(async () => {
    // No job runs: only the answers to POST /crawls are looked at.
    t = await startTestApp('sqlite', { workers: 0 });
    const { allowedAddresses } = loadConfig({ PAGEGRADE_ALLOWED_ADDRESSES: '127.0.0.1' });
    guarded = await startTestApp('sqlite', { workers: 0, allowPrivateUrls: false, allowedAddresses });
    account = await t.createAccount('list-422');
  });
  afterAll(async () => {
    await t?.close();
    await guarded?.close();
  });

  const post = (app: TestApp, who: Account, fields: Record<string, unknown>) =>
    app.app.inject({ method: 'POST', url: '/api/v1/crawls', headers: { ...who.auth, 'content-type': 'application/json' }, payload: JSON.stringify(fields) });

  it('takes an array or a comma-separated string, duplicates counted once, url optional or one of them', async () => {
    const listed = await post(t, account, { urls: ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/a#top', 'HTTP://127.0.0.1:9/b'], max_pages: 2 });
    expect(listed.statusCode, listed.body).toBe(202);
    expect(body(listed).data).toMatchObject({ mode: 'list', url: 'http://127.0.0.1:9/a', project: '127.0.0.1:9' });
    const second = await post(t, account, { urls: 'http://127.0.0.1:9/a, http://127.0.0.2:9/b?x=1,2', url: 'http://127.0.0.2:9/b?x=1,2' });
    expect(second.statusCode, second.body).toBe(202);
    expect(body(second).data).toMatchObject({ mode: 'list', url: 'http://127.0.0.2:9/b?x=1,2', project: '127.0.0.2:9' });
    // A form's textarea: one URL a line.
    const form = await call(t, account, 'POST', '/api/v1/crawls', { urls: 'http://127.0.0.1:9/c\r\nhttp://127.0.0.1:9/d\r\n' });
    expect(form.statusCode, form.body).toBe(202);
    expect(body(form).data).toMatchObject({ mode: 'list', url: 'http://127.0.0.1:9/c' });
  });

  it('refuses more URLs than max_pages, a url not among them, a malformed entry, too many hosts', async () => {
    const other = await t.createAccount('list-422-b');
    expect(expectInvalid(await post(t, other, { urls: ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b', 'http://127.0.0.1:9/c'], max_pages: 2 }), 'urls').join(' ')).toMatch(/at most 2 distinct URLs/);
    expect(expectInvalid(await post(t, other, { urls: 'http://127.0.0.1:9/a', url: 'http://127.0.0.1:9/b' }), 'url').join(' ')).toMatch(/one of the urls/);
    expect(expectInvalid(await post(t, other, { urls: ['http://127.0.0.1:9/a', 'ftp://127.0.0.1/file'] }), 'urls').join(' ')).toMatch(/entry 2 \("ftp:\/\/127\.0\.0\.1\/file"\) must use http or https/);
    expect(expectInvalid(await post(t, other, { urls: ['http://127.0.0.1:9/a', 'http://user:secret@127.0.0.1:9/b'] }), 'urls').join(' ')).not.toContain('secret');
    expect(expectInvalid(await post(t, other, { urls: '' }), 'urls').join(' ')).toMatch(/at least one URL/);
    const hosts = Array.from({ length: 51 }, (_, index) => `http://127.0.0.1:${1000 + index}/`);
    expect(expectInvalid(await post(t, other, { urls: hosts, max_pages: 100 }), 'urls').join(' ')).toMatch(/at most 50 hosts/);
    expect((await call(t, other, 'GET', '/api/v1/crawls')).json().data).toEqual([]);
  });

  it('refuses a list naming an address the guard refuses, naming the first such URL and why', async () => {
    const who = await guarded.createAccount('list-guard');
    const refused = expectInvalid(await post(guarded, who, { urls: ['http://127.0.0.1:9/fine', 'http://127.0.0.2:9/first', 'http://127.0.0.3:9/second'] }), 'urls');
    expect(refused.join(' ')).toMatch(/http:\/\/127\.0\.0\.2:9\/first, which cannot be crawled: .*127\.0\.0\.2 is a loopback address/);
    expect(refused.join(' ')).not.toContain('127.0.0.3');
    expect((await call(guarded, who, 'GET', '/api/v1/crawls')).json().data).toEqual([]);
    expect((await post(guarded, who, { urls: ['http://127.0.0.1:9/fine'] })).statusCode).toBe(202);
  });
});

describe('pagegrade crawl --urls', () => {
  let site: RecordingSite;
  let directory: string;

  beforeAll(async () => {
    site = await startRecordingSite({
      '/': html(simplePage('Home', ['/about', '/missing'])),
      '/about': html(simplePage('About', ['/'])),
    });
    directory = await mkdtemp(join(tmpdir(), 'pagegrade-list-'));
  });
  afterAll(async () => {
    await site?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('audits exactly the file\'s URLs and ends done', async () => {
    const file = join(directory, 'urls.txt');
    await writeFile(file, `# the pages to audit\n${site.url('/about')}\n\n${site.url('/')}\n`);
    const run = await runInProcess(['crawl', '--urls', file, '--json', '--no-external'], LOOPBACK);
    expect(run.code, run.stderr).toBe(0);
    const outcome = JSON.parse(run.stdout);
    expect(outcome.crawl).toMatchObject({ state: 'done', mode: 'list', url: site.url('/about'), pages_crawled: 2 });
    expect(outcome.issues.map((issue: Body) => issue.id)).toContain('broken_links');
    expect(pageRequests(site)).toEqual(new Map([['/', 1], ['/about', 1], ['/missing', 1]]));
  });
});
