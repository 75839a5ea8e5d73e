// Crawls on the dashboard through real routing: start one with the form against a loopback site, watch
// its page refresh while it runs, then read its site score, site issues and page table (whose filters,
// sort and paging answer as the API's), download its CSVs, reach it from its project, and delete it.
// Each behind the owner's session and, for forms, a CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, type Account, type Body } from '../support/api-fixtures.ts';
import { crawlPages, showCrawl, untilCrawlEnded } from '../support/crawl-fixtures.ts';
import { type Handler, holdGate, html, linkingPage, type Site, startSite } from '../support/site-server.ts';
import { waitFor } from '../queue/engines.ts';
import { shortUrl } from '../../src/web/views/format.ts';
import { WebClient, expectLabelledInputs, expectNoInlineCode, expectUniqueIds, linkedReportIds } from './web-client.ts';

const REFRESH = /<meta http-equiv="refresh" content="\d+">/;
/** A title the crawled site serves on two pages: shown escaped, never as markup. */
const HOSTILE_TITLE = 'Coffee & "beans" <script>alert(1)</script> from the mountains';

function redirect(location: string): Handler {
  return (_request, response) => {
    response.writeHead(301, { location });
    response.end();
  };
}

/** The URLs of the crawl page's table rows, as shown (shortUrl), in order. */
function tableUrls(pageBody: string): string[] {
  return [...pageBody.matchAll(/<td data-label="Page">(?:<a class="report-link" href="\/reports\/\d+">|<span class="report-link url">)([^<]+)</g)].map(
    (match) => match[1].replaceAll('&amp;', '&'),
  );
}

function crawlIdOf(location: unknown): number {
  const id = Number(/^\/dashboard\/crawls\/(\d+)$/.exec(String(location))?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

describe.each(testDialects())('crawls on the dashboard [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  const gate = holdGate();
  /** The crawl the first test makes through the form; later tests read it. */
  let owner: { account: Account; browser: WebClient };
  let crawlId: number;

  async function signedIn(label = 'user'): Promise<{ account: Account; browser: WebClient }> {
    const account = await t.createAccount(label);
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    return { account, browser };
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({
      '/': html(linkingPage('Home of the mountain coffee roastery', ['/a', '/b', '/c', '/missing', '/old'])),
      '/c': html(linkingPage('How the mountain coffee is roasted, step by step', ['/'])),
      '/a': html(linkingPage(HOSTILE_TITLE, ['/', '/b'])),
      // Held until the test has seen the crawl under way.
      '/b': gate.hold(html(linkingPage(HOSTILE_TITLE, ['/a']))),
      '/old': redirect('/a'),
    });
    owner = await signedIn('owner');
  });
  afterAll(async () => {
    gate.release();
    await site?.close();
    await t?.close();
  });

  it('starts a crawl from the form, shows its progress while it runs, then its score, issues and pages', async () => {
    const { account, browser } = owner;
    const form = await browser.get('/dashboard/crawls/new');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<label for="url">Start URL</label>');
    expect(form.body).toContain('<a href="/dashboard/crawls" aria-current="page">Crawls</a>');
    expect(form.body).toMatch(/<input id="sitemap" name="sitemap" type="checkbox" value="1" checked/);
    expectNoInlineCode(form.body);
    expectUniqueIds(form.body);
    expectLabelledInputs(form.body);

    const started = await browser.post('/dashboard/crawls', { url: site.url('/'), max_pages: 20, max_depth: 5, sitemap: 1, privacy: 0 });
    expect(started.statusCode, started.body).toBe(303);
    crawlId = crawlIdOf(started.headers.location);
    expect(await showCrawl(t, account, crawlId)).toMatchObject({ url: site.url('/'), max_pages: 20, max_depth: 5, sitemap: 1, privacy: 0 });

    // /b is held: the crawl runs and cannot end.
    await waitFor(async () => {
      const crawl = await showCrawl(t, account, crawlId);
      return crawl.state === 'running' && crawl.pages_crawled >= 1;
    }, 'the crawl to analyse a page');
    const running = await browser.get(`/dashboard/crawls/${crawlId}`);
    expect(running.statusCode).toBe(200);
    expect(running.body).toMatch(REFRESH);
    expect(running.body).toContain('<span class="state-chip state-chip--running">Crawling</span>');
    expect(running.body).toContain('The site is being crawled; this page refreshes itself.');
    expect(running.body).toMatch(/[1-9]\d* of 20 pages analysed, \d+ found, 0 failed/);
    expect(running.body).toMatch(/<progress class="crawl-progress-bar" max="20" value="[1-9]\d*"/);
    expect(running.body).not.toContain('Site issues');
    expect(running.body).toContain('Cancel this crawl…');
    const list = await browser.get('/dashboard/crawls');
    expect(list.body).toMatch(REFRESH);
    expect(list.body).toContain(`href="/dashboard/crawls/${crawlId}"`);

    gate.release();
    const crawl = await untilCrawlEnded(t, account, crawlId);
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');

    const done = await browser.get(`/dashboard/crawls/${crawlId}`);
    expect(done.statusCode).toBe(200);
    expect(done.body).not.toMatch(REFRESH);
    expect(done.body).toContain('<span class="state-chip state-chip--done">Done</span>');
    expect(done.body).toContain(`${crawl.pages_crawled} of 20 pages analysed, ${crawl.pages_found} found, 0 failed`);
    expect(done.body).toContain(`aria-label="Score ${crawl.score} out of 100"`);
    expect(done.body).toContain(`<p class="verdict verdict--${crawl.result}">`);
    expect(done.body).toContain(`<span class="issue-count">${crawl.issues.high}</span> high`);
    expect(done.body).toContain('Delete this crawl…');

    // The site issues: each check's failure title, importance, count, why and how, and its findings.
    expect(done.body).toContain('<h2 id="issues-heading">Site issues</h2>');
    const issues = body(await call(t, account, 'GET', `/api/v1/crawls/${crawlId}/issues`)).data as Body[];
    expect(issues.map((issue) => issue.id)).toEqual(expect.arrayContaining(['broken_links', 'redirected_links', 'duplicate_titles']));
    const ids = [...done.body.matchAll(/<li class="check check--failed site-issue" id="issue-([a-z_]+)">/g)].map((match) => match[1]);
    expect(ids).toEqual(issues.map((issue) => issue.id));
    const broken = done.body.slice(done.body.indexOf('id="issue-broken_links"'));
    expect(broken).toMatch(/^[^]*?High importance[^]*?2 findings[^]*?Internal links lead to errors[^]*?Why it matters[^]*?How to fix/);
    expect(broken).toContain(`<a class="url" href="${site.url('/missing')}" rel="nofollow noopener noreferrer">${shortUrl(site.url('/missing'), 120)}</a> <span class="site-item-what">answers 404</span>`);
    // Every good page links /about: its linking pages are collapsed behind their count.
    expect(broken).toMatch(/<details class="site-item-pages"><summary>Linked from [4-9] pages<\/summary>/);
    expect(done.body).toContain('Internal links lead to redirects');
    expect(done.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(done.body).not.toContain('<script>alert(1)');
    expect(done.body).toMatch(/site checks? found nothing<\/summary>/);

    // The page table: every URL reached, each analysed page linking to its report.
    const pages = await crawlPages(t, account, crawlId);
    expect(tableUrls(done.body)).toEqual(pages.map((row) => shortUrl(row.url, 120)));
    const reportIds = pages.filter((row) => row.report_id !== null).map((row) => row.report_id);
    expect(reportIds.length).toBe(crawl.pages_crawled);
    expect(linkedReportIds(done.body)).toEqual(reportIds);
    expect(done.body).toContain('<span class="http-status http-status--4xx">404</span>');
    expect(done.body).toContain(`href="/dashboard/crawls/${crawlId}/pages.csv?sort_by=url&amp;sort=asc" download`);
    expect(done.body).toContain(`href="/dashboard/crawls/${crawlId}/issues.csv" download`);
    expect((await browser.get(`/reports/${reportIds[0]}`)).statusCode).toBe(200);
    expectNoInlineCode(done.body);
    expectUniqueIds(done.body);
    expectLabelledInputs(done.body);

    const listed = await browser.get('/dashboard/crawls');
    expect(listed.body).not.toMatch(REFRESH);
    expect(listed.body).toContain(`<span class="verdict-chip verdict-chip--${crawl.result}">${crawl.score} · `);
  });

  it('filters, sorts and pages the page table as the API does', async () => {
    const { account, browser } = owner;
    const queries = [
      'status=4xx',
      'status=3xx',
      'status=2xx&sort_by=score&sort=desc',
      'result=good',
      'sort_by=inlinks&sort=desc',
      'sort_by=depth&sort=asc&per_page=10&page=1',
      'status=&result=&sort_by=url',
    ];
    for (const query of queries) {
      const api = body(await call(t, account, 'GET', `/api/v1/crawls/${crawlId}/pages?${query.replace(/(status|result)=(&|$)/g, '')}`));
      const response = await browser.get(`/dashboard/crawls/${crawlId}?${query}`);
      expect(response.statusCode, query).toBe(200);
      expect(tableUrls(response.body), query).toEqual(api.data.map((row: Body) => shortUrl(row.url, 120)));
    }
    const broken = await browser.get(`/dashboard/crawls/${crawlId}?status=4xx`);
    expect(broken.body).toMatch(/<option value="4xx" selected>/);
    expect(broken.body).toContain(`href="/dashboard/crawls/${crawlId}/pages.csv?status=4xx&amp;sort_by=url&amp;sort=asc" download`);

    const none = await browser.get(`/dashboard/crawls/${crawlId}?status=5xx`);
    expect(none.body).toContain('No page matches these filters.');

    // One row a page: the links keep the filters and jump to the table.
    const total = (await crawlPages(t, account, crawlId)).length;
    const first = await browser.get(`/dashboard/crawls/${crawlId}?per_page=10&sort_by=url`);
    expect(first.body).toContain(`Showing 1–${Math.min(10, total)} of ${total} pages`);
    const second = await browser.get(`/dashboard/crawls/${crawlId}?per_page=10&sort_by=url&page=2`);
    expect(second.body).toContain(`rel="prev" href="/dashboard/crawls/${crawlId}?sort_by=url&amp;sort=asc&amp;per_page=10&amp;page=1#pages"`);

    const invalid = await browser.get(`/dashboard/crawls/${crawlId}?status=6xx`);
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('The status must be one of: 2xx, 3xx, 4xx, 5xx, failed.');
  });

  it('downloads the pages and issues as the API\'s CSV files', async () => {
    const { account, browser } = owner;
    const pagesCsv = await browser.get(`/dashboard/crawls/${crawlId}/pages.csv?status=4xx&sort_by=url&sort=asc`);
    expect(pagesCsv.statusCode).toBe(200);
    expect(pagesCsv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(pagesCsv.headers['content-disposition']).toBe(`attachment; filename="crawl-${crawlId}-pages.csv"`);
    const apiPages = await call(t, account, 'GET', `/api/v1/crawls/${crawlId}/pages?format=csv&status=4xx`);
    expect(pagesCsv.body).toBe(apiPages.body);
    expect(pagesCsv.body.split('\r\n')[0]).toBe('url,status_code,depth,title,content_type,report_id,score,result,inlinks,redirect_target,error,external,links_dropped,reason');
    expect(pagesCsv.body).toContain(`${site.url('/missing')},404,`);

    const all = await browser.get(`/dashboard/crawls/${crawlId}/pages.csv?status=&per_page=10`);
    expect(all.body.trimEnd().split('\r\n')).toHaveLength((await crawlPages(t, account, crawlId)).length + 1);

    const issuesCsv = await browser.get(`/dashboard/crawls/${crawlId}/issues.csv`);
    expect(issuesCsv.statusCode).toBe(200);
    expect(issuesCsv.headers['content-disposition']).toBe(`attachment; filename="crawl-${crawlId}-issues.csv"`);
    expect(issuesCsv.body).toBe((await call(t, account, 'GET', `/api/v1/crawls/${crawlId}/issues?format=csv`)).body);
    expect(issuesCsv.body.split('\r\n')[0]).toBe('id,importance,count,items');
  });

  it('shows the project\'s latest crawl on its page, with a way to crawl the site again', async () => {
    const { browser } = owner;
    const project = new URL(site.origin).host;
    const projects = await browser.get('/dashboard/projects');
    expect(projects.body).toContain(`<a href="/dashboard/projects/${encodeURIComponent(project)}">${project}</a>`);
    const response = await browser.get(`/dashboard/projects/${encodeURIComponent(project)}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<h2 id="latest-crawl-heading">Latest crawl</h2>');
    expect(response.body).toContain(`<a class="button" href="/dashboard/crawls/${crawlId}">Open the crawl</a>`);
    expect(response.body).toContain('<span class="state-chip state-chip--done">Done</span>');
    expect(response.body).toContain(`href="/dashboard/reports?project=${encodeURIComponent(project)}"`);
    const crawlHref = `/dashboard/crawls/new?url=${encodeURIComponent(site.url('/'))}`;
    expect(response.body).toContain(`<a class="button button--primary" href="${crawlHref.replaceAll('&', '&amp;')}">Crawl this site</a>`);
    expectNoInlineCode(response.body);
    expectUniqueIds(response.body);

    const form = await browser.get(crawlHref);
    expect(form.body).toMatch(new RegExp(`<input id="url" name="url"[^>]*value="${site.url('/').replace(/[.]/g, '\\.')}"`));

    const list = await browser.get(`/dashboard/crawls?project=${encodeURIComponent(project)}&state=done`);
    expect(list.body).toContain(`href="/dashboard/crawls/${crawlId}"`);
    expect((await browser.get('/dashboard/crawls?state=failed')).body).toContain('No crawl matches these filters.');
    expect((await browser.get('/dashboard/crawls?state=lost')).statusCode).toBe(422);

    // A host with neither a report nor a crawl has no page.
    expect((await browser.get('/dashboard/projects/nothing.example')).statusCode).toBe(404);
  });

  it('shows each field\'s message on the form and starts nothing', async () => {
    const { account, browser } = owner;
    const before = body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total;
    await browser.get('/dashboard/crawls/new');

    const badUrl = await browser.post('/dashboard/crawls', { url: 'ftp://example.com/', max_pages: 20, max_depth: 3 });
    expect(badUrl.statusCode).toBe(422);
    expect(badUrl.body).toMatch(/<p class="field-error" id="url-error">[^<]+<\/p>/);
    expect(badUrl.body).toMatch(/<input id="url"[^>]*aria-describedby="url-hint url-error" aria-invalid="true"/);
    expect(badUrl.body).toContain('value="ftp://example.com/"');
    // An unchecked sitemap box stays unchecked.
    expect(badUrl.body).toMatch(/<input id="sitemap" name="sitemap" type="checkbox" value="1" aria-describedby/);

    const tooMany = await browser.post('/dashboard/crawls', { url: site.url('/'), max_pages: 0, max_depth: 3, sitemap: 1 });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.body).toMatch(/<p class="field-error" id="max_pages-error">The max_pages must be an integer from 1 to [\d,]+\.<\/p>/);
    expect(tooMany.body).toMatch(/<input id="max_pages"[^>]*value="0"[^>]*aria-invalid="true"/);

    const tooDeep = await browser.post('/dashboard/crawls', { url: site.url('/'), max_pages: 5, max_depth: 51 });
    expect(tooDeep.statusCode).toBe(422);
    expect(tooDeep.body).toContain('<p class="field-error" id="max_depth-error">The max_depth must be an integer from 0 to 50.</p>');

    const notANumber = await browser.post('/dashboard/crawls', { url: site.url('/'), max_pages: 'many', max_depth: 2 });
    expect(notANumber.statusCode).toBe(422);
    expect(notANumber.body).toContain('<p class="field-error" id="max_pages-error">The max_pages must be an integer.</p>');
    expect(notANumber.body).toContain('value="many"');

    const noUrl = await browser.post('/dashboard/crawls', { max_pages: 5, max_depth: 2 });
    expect(noUrl.statusCode).toBe(422);
    expect(noUrl.body).toContain('<p class="field-error" id="url-error">The url field is required.</p>');

    expect(body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total).toBe(before);
  });

  it('refuses the forms without a valid CSRF token, and nothing changes', async () => {
    const { account, browser } = owner;
    const before = body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total;
    await browser.get('/dashboard/crawls');
    const forms: [string, Record<string, string | number>][] = [
      ['/dashboard/crawls', { url: site.url('/'), max_pages: 2, max_depth: 1 }],
      [`/dashboard/crawls/${crawlId}/delete`, {}],
    ];
    for (const [path, fields] of forms) {
      const missing = await browser.post(path, fields, { csrf: false });
      expect(missing.statusCode, path).toBe(403);
      expect(missing.body).toContain('This form has expired');
      expect((await browser.post(path, { ...fields, _csrf: 'not-a-token' })).statusCode, path).toBe(403);
    }
    expect(body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total).toBe(before);
    expect((await showCrawl(t, account, crawlId)).state).toBe('done');
  });

  it('treats another account\'s crawl as not there, and changes nothing of it', async () => {
    const { browser } = await signedIn('stranger');
    await browser.get('/dashboard/crawls');
    for (const path of ['', '?status=4xx', '/pages.csv', '/issues.csv', '/delete']) {
      const response = await browser.get(`/dashboard/crawls/${crawlId}${path}`);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).not.toContain(site.origin.replace('http://', ''));
    }
    expect((await browser.post(`/dashboard/crawls/${crawlId}/delete`)).statusCode).toBe(404);
    expect((await browser.get('/dashboard/crawls')).body).not.toContain(`href="/dashboard/crawls/${crawlId}"`);
    expect((await browser.get(`/dashboard/projects/${encodeURIComponent(new URL(site.origin).host)}`)).statusCode).toBe(404);
    expect((await showCrawl(t, owner.account, crawlId)).state).toBe('done');
    expect((await browser.get('/dashboard/crawls/abc')).statusCode).toBe(404);

    const nobody = new WebClient(t.app);
    for (const path of ['/dashboard/crawls', '/dashboard/crawls/new', `/dashboard/crawls/${crawlId}`, `/dashboard/crawls/${crawlId}/pages.csv`]) {
      const response = await nobody.get(path);
      expect(response.statusCode, path).toBe(303);
      expect(response.headers.location).toBe('/sign-in');
    }
  });

  it('cancels a running crawl after a confirmation page, and deletes a finished one; their reports stay', async () => {
    const { account, browser } = owner;
    const held = holdGate();
    const own = await startSite({ '/': held.hold(html(linkingPage('A slow home page of a coffee shop', []))) });
    try {
      await browser.get('/dashboard/crawls/new');
      const started = await browser.post('/dashboard/crawls', { url: own.url('/'), max_pages: 3, max_depth: 1 });
      const id = crawlIdOf(started.headers.location);
      await waitFor(async () => (await showCrawl(t, account, id)).state === 'running', 'the crawl to start');
      const confirm = await browser.get(`/dashboard/crawls/${id}/delete`);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain(`Cancel and delete crawl #${id}?`);
      expect(confirm.body).toContain(`action="/dashboard/crawls/${id}/delete"`);
      const cancelled = await browser.post(`/dashboard/crawls/${id}/delete`);
      expect(cancelled.statusCode).toBe(303);
      expect(cancelled.headers.location).toBe('/dashboard/crawls?notice=crawl-deleted');
      expect((await call(t, account, 'GET', `/api/v1/crawls/${id}`)).statusCode).toBe(404);
      expect((await browser.get(`/dashboard/crawls/${id}`)).statusCode).toBe(404);
    } finally {
      held.release();
      await own.close();
    }

    const reportIds = (await crawlPages(t, account, crawlId)).filter((row) => row.report_id !== null).map((row) => row.report_id);
    const confirm = await browser.get(`/dashboard/crawls/${crawlId}/delete`);
    expect(confirm.body).toContain(`Delete crawl #${crawlId}?`);
    expect(confirm.body).toContain('The reports it made stay in their project.');
    const deleted = await browser.post(`/dashboard/crawls/${crawlId}/delete`);
    expect(deleted.statusCode).toBe(303);
    const list = await browser.get(String(deleted.headers.location));
    expect(list.body).toContain('The crawl was deleted.');
    expect(list.body).not.toContain(`href="/dashboard/crawls/${crawlId}"`);
    expect((await browser.get(`/dashboard/crawls/${crawlId}`)).statusCode).toBe(404);
    for (const id of reportIds) expect((await browser.get(`/reports/${id}`)).statusCode).toBe(200);
  });
});
