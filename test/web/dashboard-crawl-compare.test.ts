// The dashboard's compare page (/dashboard/crawls/{id}/compare): a loopback site crawled, edited and
// crawled again, then the later crawl's page links to the comparison, which shows the scores, the site
// checks' new and fixed findings and the pages whose status changed; a crawl with nothing earlier, a
// refused `from`, a crawl still running and another account's crawl each get their page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import type { Account, Body } from '../support/api-fixtures.ts';
import { redirect, simplePage, startCrawl, untilCrawlEnded } from '../support/crawl-fixtures.ts';
import { holdGate, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectLabelledInputs, expectNoInlineCode, expectUniqueIds } from './web-client.ts';

describe.each(testDialects())('comparing crawls on the dashboard [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let account: Account;
  let browser: WebClient;
  const gate = holdGate();
  let first: Body;
  let second: Body;

  const page = (title: string, links: string[]) => html(simplePage(title, links));
  const crawlOf = async (path: string) => untilCrawlEnded(t, account, (await startCrawl(t, account, { url: site.url(path), max_pages: 20, sitemap: 0 })).id);

  beforeAll(async () => {
    site = await startSite({
      '/': page('Home of the roastery', ['/a', '/gone', '/old']),
      '/a': page('Beans from the mountains', ['/']),
      '/gone': html('<!doctype html><title>Not found</title>', 404),
      '/old': redirect('/a'),
      '/held': gate.hold(page('A page that answers late', [])),
    });
    t = await startTestApp(dialect);
    account = await t.createAccount('comparer');
    browser = new WebClient(t.app);
    await browser.signIn(account.key);
    first = await crawlOf('/');
    site.route('/', page('Home of the roastery', ['/a', '/missing <b>&', '/old']));
    site.route('/old', page('The old shop, still open', ['/']));
    second = await crawlOf('/');
  });

  afterAll(async () => {
    gate.release();
    await t?.close();
    await site?.close();
  });

  it('links a done crawl to its comparison with the previous crawl, which shows what changed', async () => {
    const crawlPage = await browser.get(`/dashboard/crawls/${second.id}`);
    expect(crawlPage.body).toContain(`<a class="button" href="/dashboard/crawls/${second.id}/compare">Compare</a>`);

    const compared = await browser.get(`/dashboard/crawls/${second.id}/compare`);
    expect(compared.statusCode, compared.body).toBe(200);
    expect(compared.body).toContain(`<a href="/dashboard/crawls/${first.id}">Crawl #${first.id}</a>`);
    expect(compared.body).toContain(`<a href="/dashboard/crawls/${second.id}">Crawl #${second.id}</a>`);
    expect(compared.body).toContain(`Score ${first.score} → ${second.score}`);
    // The broken_links entry: from its id to the next entry's (or the pages section).
    const start = compared.body.indexOf('id="compare-broken_links"');
    expect(start, compared.body).toBeGreaterThan(0);
    const entry = compared.body.slice(start, compared.body.indexOf('id="compare-', start + 1));
    expect(entry).toContain('1 new, 1 fixed, 0 persisting');
    // The new broken link's URL came from the site: escaped, as every item.
    expect(entry).toContain(`${site.url('/missing%20%3Cb%3E&amp;')}`);
    expect(entry).not.toContain('<b>');
    expect(entry).toContain(site.url('/gone'));
    expect(compared.body).toMatch(/1 URL visited by Crawl #\d+ only, 1 URL by Crawl #\d+ only, 1 URL answering another status/);
    expect(compared.body).toMatch(/<td data-label="Crawl #\d+"><span class="http-status http-status--3xx">301<\/span><\/td>\s*<td data-label="Crawl #\d+"><span class="http-status http-status--2xx">200<\/span>/);
    // The form offers the other done crawl of the URL, selected.
    expect(compared.body).toContain(`<option value="${first.id}" selected>`);
    expectNoInlineCode(compared.body);
    expectUniqueIds(compared.body);
    expectLabelledInputs(compared.body);
  });

  it('says when there is nothing earlier, refuses a from that is the crawl itself, and waits for a running crawl', async () => {
    const earliest = await browser.get(`/dashboard/crawls/${first.id}/compare`);
    expect(earliest.statusCode).toBe(200);
    expect(earliest.body).toContain('There is no earlier finished crawl of this URL to compare with.');
    // The later crawl can still be picked.
    expect(earliest.body).toContain(`<option value="${second.id}"`);

    const itself = await browser.get(`/dashboard/crawls/${second.id}/compare?from=${second.id}`);
    expect(itself.statusCode).toBe(422);
    expect(itself.body).toMatch(/<p class="form-error" id="compare-error" role="alert">The from crawl must be another crawl/);

    const running = await startCrawl(t, account, { url: site.url('/held'), max_pages: 1, sitemap: 0 });
    const waiting = await browser.get(`/dashboard/crawls/${running.id}/compare`);
    expect(waiting.statusCode).toBe(409);
    expect(waiting.body).toContain('This crawl has not finished yet');
    gate.release();
    await untilCrawlEnded(t, account, running.id);

    const stranger = new WebClient(t.app);
    await stranger.signIn((await t.createAccount('stranger')).key);
    expect((await stranger.get(`/dashboard/crawls/${second.id}/compare`)).statusCode).toBe(404);
    expect((await new WebClient(t.app).get(`/dashboard/crawls/${second.id}/compare`)).statusCode).toBe(303);
  });
});
