// The crawl bounds on the dashboard (docs/crawls.md, "Bounds"): a crawl a bound cut short says so
// above its site issues, naming the URLs left and the bounds hit, with a link to the URLs not
// visited (the page table filtered by state=unvisited); a crawl without limit_reached never says
// "Limit reached"; the new-crawl form shows the per-account limit's message (429). Crawls are stored
// directly: the app runs no background jobs.
import type { Insertable, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../src/db/database.ts';
import type { CrawlPagesTable, CrawlsTable } from '../../src/db/tables/crawl.table.ts';
import { renderCrawlText } from '../../src/cli/crawl-text.ts';
import { createStyle } from '../../src/cli/terminal-text.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call } from '../support/api-fixtures.ts';
import { WebClient } from './web-client.ts';

const ORIGIN = 'http://127.0.0.2:9';

describe.each(testDialects())('crawl bounds on the dashboard [%s]', (dialect) => {
  let t: TestApp;
  let handle: { db: Kysely<Database>; destroy(): Promise<void> };

  beforeAll(async () => {
    t = await startTestApp(dialect, { allowPrivateUrls: false, publicAddressesForTests: ['127.0.0.2'], workers: 0 });
    handle = createDb(t.config.databaseUrl);
  });
  afterAll(async () => {
    await handle?.destroy();
    await t?.close();
  });

  async function signedIn() {
    const account = await t.createAccount('limit');
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    return { account, browser };
  }

  async function storeCrawl(organizationId: number, patch: Partial<Insertable<CrawlsTable>>, pages: Omit<Insertable<CrawlPagesTable>, 'crawl_id'>[] = []): Promise<number> {
    const { id } = await handle.db
      .insertInto('crawls')
      .values({
        organization_id: organizationId, url: `${ORIGIN}/`, project: '127.0.0.2:9', state: 'done', max_pages: 10, max_depth: 10, use_sitemap: 1, privacy: 0, render: 0,
        score: 75, result: 'decent', created_at: '2026-12-02T10:00:00.000Z', finished_at: '2026-12-02T10:05:00.000Z', ...patch,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const page of pages) await handle.db.insertInto('crawl_pages').values({ ...page, crawl_id: Number(id) }).execute();
    return Number(id);
  }

  const visitedPage = (path: string, linksDropped = 0) => ({
    url: `${ORIGIN}${path}`, state: 'done' as const, depth: 0, status_code: 200, content_type: 'text/html', html: 1, score: 75, result: 'decent' as const, links_dropped: linksDropped,
  });

  it('says "Limit reached" above the site issues with the URLs not visited, the bounds hit and a link to them', async () => {
    const { account, browser } = await signedIn();
    const id = await storeCrawl(account.organization, { limit_reached: 1, pages_found: 60, pages_visited: 10, pages_crawled: 10, pages_unstored: 0 }, [
      visitedPage('/', 1_200),
      { url: `${ORIGIN}/left`, state: 'pending', depth: 1, reason: 'max_pages' },
      { url: `${ORIGIN}/deep`, state: 'pending', depth: 11, reason: 'max_depth' },
      { url: `${ORIGIN}/private`, state: 'pending', depth: 1, reason: 'excluded' },
    ]);
    const page = await browser.get(`/dashboard/crawls/${id}`);
    expect(page.statusCode).toBe(200);
    const text = page.body.replace(/\s+/g, ' ');
    expect(text).toContain('Limit reached: 50 of 60 URLs found were not visited (max_pages, max_depth, links per page). The site checks judged only the pages visited.');
    // excluded is no bound: not named.
    expect(text).not.toMatch(/Limit reached[^<]*excluded/);
    const link = `/dashboard/crawls/${id}?state=unvisited#pages`;
    expect(page.body).toContain(`href="${link}"`);
    expect(page.body.indexOf('Limit reached')).toBeLessThan(page.body.indexOf('id="issues"') === -1 ? Infinity : page.body.indexOf('id="issues"'));

    const unvisited = await browser.get(link.replace('#pages', ''));
    expect(unvisited.statusCode).toBe(200);
    expect(unvisited.body).toContain(`${ORIGIN.replace('http://', '')}/left`);
    expect(unvisited.body).toContain('not visited: max_pages reached');
    expect(unvisited.body).toContain('not visited: excluded');
    expect(unvisited.body).toMatch(/<option value="unvisited" selected>/);
    // The CSV link keeps the filter.
    expect(unvisited.body).toContain(`/dashboard/crawls/${id}/pages.csv?state=unvisited`);
  });

  it('counts URLs a full frontier could not store as the limit bound', async () => {
    const { account, browser } = await signedIn();
    const id = await storeCrawl(account.organization, { limit_reached: 1, pages_found: 1_500, pages_visited: 10, pages_unstored: 1_490 }, [visitedPage('/')]);
    const text = (await browser.get(`/dashboard/crawls/${id}`)).body.replace(/\s+/g, ' ');
    expect(text).toContain('Limit reached: 1,490 of 1,500 URLs found were not visited (limit).');
  });

  it('never says "Limit reached" of a crawl without limit_reached, whatever else it left', async () => {
    const { account, browser } = await signedIn();
    const id = await storeCrawl(account.organization, { limit_reached: 0, pages_found: 3, pages_visited: 1 }, [
      visitedPage('/'),
      { url: `${ORIGIN}/private`, state: 'pending', depth: 1, reason: 'excluded' },
    ]);
    const page = await browser.get(`/dashboard/crawls/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Limit reached');
    const crawl = body(await call(t, account, 'GET', `/api/v1/crawls/${id}`)).data;
    expect(renderCrawlText({ crawl, issues: [], pages: [] }, createStyle(false))).not.toContain('Limit reached');
  });

  it('prints the same sentence in one line of the CLI\'s text', async () => {
    const { account } = await signedIn();
    const id = await storeCrawl(account.organization, { limit_reached: 1, pages_found: 60, pages_visited: 10 }, [visitedPage('/', 5)]);
    const crawl = body(await call(t, account, 'GET', `/api/v1/crawls/${id}`)).data;
    const pages = body(await call(t, account, 'GET', `/api/v1/crawls/${id}/pages`)).data;
    const withBounds = renderCrawlText({ crawl, issues: [], pages }, createStyle(false), { reasons: ['max_pages'], linksDropped: true });
    expect(withBounds.split('\n')).toContain('Limit reached: 50 of 60 URLs found were not visited (max_pages, links per page). The site checks judged only the pages visited.');
    // Without the bounds read, what the pages show.
    expect(renderCrawlText({ crawl, issues: [], pages }, createStyle(false))).toContain('Limit reached: 50 of 60 URLs found were not visited (links per page).');
  });

  it('shows the per-account limit in the new-crawl form (429 with Retry-After), storing nothing', async () => {
    const { account, browser } = await signedIn();
    for (let i = 0; i < 5; i++) await storeCrawl(account.organization, { state: 'running', score: null, result: null, finished_at: null });
    await browser.get('/dashboard/crawls/new');
    const refused = await browser.post('/dashboard/crawls', { url: `${ORIGIN}/`, max_pages: 10, max_depth: 3, sitemap: 1, privacy: 0 });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toContain('The account already has 5 crawls queued or running; start another when one has ended.');
    expect(refused.body).toContain(`value="${ORIGIN}/"`);
    const { count } = await handle.db.selectFrom('crawls').where('organization_id', '=', account.organization).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(5);
  });
});
