// A crawl's request headers and user agent through the API (docs/crawls.md, "Scope and request
// headers"): refused headers and presets are 422s storing nothing; the headers' names are shown, their
// values never; a site whose every answer needs a cookie is crawled whole with it, while a second host
// (a sitemap file there, a redirect of a sitemap there, a link there) never receives it; a Googlebot
// preset sends Googlebot's User-Agent and obeys robots.txt's googlebot group.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectInvalid, type Account, type Body } from '../support/api-fixtures.ts';
import type { Handler } from '../support/site-server.ts';
import { crawlPages, simplePage, startCrawl, startRecordingSite, untilCrawlEnded, type RecordingSite } from '../support/crawl-fixtures.ts';
import { openDatabase, type AppDatabase } from '../../src/db/open-database.ts';

const COOKIE = 'session=opensesame-4f9c';

/** What each request to a site carried. */
interface Seen {
  path: string;
  cookie: string | undefined;
  accept: string | undefined;
  userAgent: string;
}

function remember(seen: Seen[], request: IncomingMessage): void {
  seen.push({ path: (request.url ?? '/').split('?')[0], cookie: request.headers.cookie, accept: request.headers.accept, userAgent: String(request.headers['user-agent']) });
}

/** `handler` for requests with the cookie; a 403 for the others. */
const withCookie = (seen: Seen[], handler: Handler): Handler => (request, response) => {
  remember(seen, request);
  if (request.headers.cookie !== COOKIE) {
    response.writeHead(403, { 'content-type': 'text/plain' });
    response.end('Forbidden');
    return;
  }
  handler(request, response);
};

const page = (html: string): Handler => (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(html);
};

const xml = (text: string): Handler => (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/xml' });
  response.end(text);
};

const urlset = (urls: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((url) => `<url><loc>${url}</loc></url>`).join('')}</urlset>`;

describe.each(testDialects())('a crawl\'s request headers and user agent [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  let database: AppDatabase;
  const sites: RecordingSite[] = [];

  async function site(): Promise<RecordingSite> {
    const started = await startRecordingSite();
    sites.push(started);
    return started;
  }

  async function crawlCount(): Promise<number> {
    return body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total;
  }

  function postJson(payload: Record<string, unknown>) {
    return t.app.inject({ method: 'POST', url: '/api/v1/crawls', headers: { ...account.auth, 'content-type': 'application/json' }, payload });
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 2 });
    account = await t.createAccount('headers');
    database = await openDatabase(t.config.databaseUrl);
  });

  afterAll(async () => {
    await database?.close();
    await t?.close();
    await Promise.all(sites.map((s) => s.close()));
  });

  it('refuses bad headers and an unknown user agent with a 422 naming the field, storing nothing', async () => {
    const target = await site();
    const cases: [Record<string, string | number>, string, RegExp][] = [
      [{ headers: Array.from({ length: 11 }, (_, index) => `X-H${index}: v`).join('\n') }, 'headers', /at most 10 headers; 11 were given/],
      [{ headers: 'Cookie: a=b\nno colon here' }, 'headers', /^Line 2 of the headers has no colon/],
      [{ headers: 'Cookie: a=b\ncookie: c=d' }, 'headers', /given more than once/],
      [{ headers: 'Bad Name: v' }, 'headers', /is not a valid HTTP field name/],
      [{ headers: 'X-Empty:' }, 'headers', /has an empty value/],
      [{ headers: `X-Long: ${'v'.repeat(4097)}` }, 'headers', /at most 4096 characters/],
      [{ headers: 'Host: example.com' }, 'headers', /^The header Host cannot be set/],
      [{ headers: 'Transfer-Encoding: chunked' }, 'headers', /cannot be set: it frames the message/],
      [{ headers: 'User-Agent: me' }, 'headers', /choose it with user_agent/],
      [{ headers: 'Accept-Encoding: br' }, 'headers', /negotiates compression/],
      [{ user_agent: 'googlebot' }, 'user_agent', /^The user_agent must be one of: default, desktop, mobile, googlebot_smartphone, googlebot_desktop\.$/],
      [{ external: 2 }, 'external', /one of: 0, 1/],
    ];
    for (const [fields, field, message] of cases) {
      const answer = await call(t, account, 'POST', '/api/v1/crawls', { url: target.url('/'), ...fields });
      const messages = expectInvalid(answer, field);
      expect(messages.join(' '), JSON.stringify(fields)).toMatch(message);
    }
    // A JSON object too: a value with a line break is refused, and the refusal never repeats a value.
    const injected = await postJson({ url: target.url('/'), headers: { Cookie: 'secret-value\r\nX-Injected: 1' } });
    expect(expectInvalid(injected, 'headers')).toEqual(['The value of the header Cookie must not contain CR, LF or NUL.']);
    expect(injected.body).not.toContain('secret-value');
    expect(await crawlCount()).toBe(0);
    expect(target.log).toEqual([]);
  });

  it('shows the header names, never their values, and stores the values sealed', async () => {
    const target = await site();
    const started = await postJson({ url: target.url('/'), headers: { Cookie: COOKIE, 'X-Env': 'staging-b7' }, user_agent: 'mobile', external: 0 });
    expect(started.statusCode, started.body).toBe(202);
    const crawl = body(started).data;
    expect(crawl).toMatchObject({ header_names: ['Cookie', 'X-Env'], user_agent: 'mobile', external: 0 });
    const answers = [
      started.body,
      (await call(t, account, 'GET', `/api/v1/crawls/${crawl.id}`)).body,
      (await call(t, account, 'GET', '/api/v1/crawls')).body,
    ];
    for (const answer of answers) {
      expect(answer).not.toContain('opensesame');
      expect(answer).not.toContain('staging-b7');
    }
    const row = await database.db.selectFrom('crawls').select(['header_names', 'headers_sealed']).where('id', '=', crawl.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.header_names)).toEqual(['Cookie', 'X-Env']);
    expect(row.headers_sealed).toMatch(/^v1\./);
    expect(row.headers_sealed).not.toContain('opensesame');
    // A form's lines, given in one field.
    const form = await call(t, account, 'POST', '/api/v1/crawls', { url: target.url('/'), headers: 'Authorization: Basic dXNlcjpwdw==\nX-A: 1', external: 0 });
    expect(form.statusCode, form.body).toBe(202);
    expect(body(form).data.header_names).toEqual(['Authorization', 'X-A']);
    expect(form.body).not.toContain('dXNlcjpwdw');
    await untilCrawlEnded(t, account, crawl.id);
    await untilCrawlEnded(t, account, body(form).data.id);
  });

  it('crawls a site that needs a cookie whole, never sending it to another host', async () => {
    const seenA: Seen[] = [];
    const seenB: Seen[] = [];
    const a = await site();
    const b = await site();
    for (const path of ['/sitemap.xml', '/moved-sitemap.xml', '/elsewhere']) {
      b.route(path, (request, response) => {
        remember(seenB, request);
        if (path === '/elsewhere') return page(simplePage('Elsewhere', []))(request, response);
        xml(urlset([a.url(path === '/sitemap.xml' ? '/from-b-sitemap' : '/from-moved-sitemap')]))(request, response);
      });
    }
    const routes: Record<string, Handler> = {
      '/': page(simplePage('Home', ['/a', '/b', b.url('/elsewhere')])),
      '/a': page(simplePage('Page A', ['/b', '/'])),
      '/b': page(simplePage('Page B', ['/a'])),
      '/from-b-sitemap': page(simplePage('From the sitemap on B', [])),
      '/from-moved-sitemap': page(simplePage('From the sitemap moved to B', [])),
      '/robots.txt': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(`User-agent: *\nAllow: /\nSitemap: ${b.url('/sitemap.xml')}\nSitemap: ${a.url('/sitemap-a.xml')}\n`);
      },
      // A sitemap of the crawled host that redirects to the other: the hop there goes without the cookie.
      '/sitemap-a.xml': (_request, response) => {
        response.writeHead(301, { location: b.url('/moved-sitemap.xml') });
        response.end();
      },
    };
    for (const [path, handler] of Object.entries(routes)) a.route(path, withCookie(seenA, handler));
    for (const probe of ['/favicon.ico', '/llms.txt']) a.route(probe, withCookie(seenA, page('')));

    const started = await startCrawl(t, account, { url: a.url('/'), max_pages: 20, headers: `Cookie: ${COOKIE}\nAccept: text/html;q=0.5` });
    const ended = await untilCrawlEnded(t, account, started.id);
    expect(ended.state, ended.error).toBe('done');

    const pages = await crawlPages(t, account, ended.id);
    const status = Object.fromEntries(pages.map((entry: Body) => [new URL(entry.url).pathname, entry.status_code]));
    expect(status).toEqual({ '/': 200, '/a': 200, '/b': 200, '/from-b-sitemap': 200, '/from-moved-sitemap': 200 });
    // Every request to the crawled host carried the cookie, robots.txt, its sitemap and the probes included,
    // and the given Accept in place of the crawler's.
    expect(seenA.map((seen) => seen.path)).toEqual(expect.arrayContaining(['/robots.txt', '/sitemap-a.xml', '/favicon.ico', '/']));
    expect(seenA.filter((seen) => seen.cookie !== COOKIE)).toEqual([]);
    expect(a.log.filter((entry) => entry.path.startsWith('/pagegrade-404-'))).toHaveLength(1);
    expect(seenA.every((seen) => seen.accept === 'text/html;q=0.5')).toBe(true);
    // The other host was asked (its sitemap files at least), never with the cookie.
    expect(seenB.map((seen) => seen.path)).toEqual(expect.arrayContaining(['/sitemap.xml', '/moved-sitemap.xml']));
    expect(seenB.filter((seen) => seen.cookie !== undefined)).toEqual([]);
    expect(seenB.every((seen) => seen.accept !== 'text/html;q=0.5')).toBe(true);
  });

  it('sends a Googlebot preset\'s User-Agent and obeys the googlebot group of robots.txt', async () => {
    const target = await site();
    target.route('/robots.txt', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('User-agent: googlebot\nDisallow: /no-google/\n\nUser-agent: *\nDisallow: /no-others/\n');
    });
    target.route('/', page(simplePage('Home', ['/no-google/x', '/no-others/y', '/open'])));
    for (const path of ['/no-google/x', '/no-others/y', '/open']) target.route(path, page(simplePage(path, [])));
    const started = await startCrawl(t, account, { url: target.url('/'), user_agent: 'googlebot_smartphone', external: 0 });
    expect(started.user_agent).toBe('googlebot_smartphone');
    const ended = await untilCrawlEnded(t, account, started.id);
    expect(ended.state, ended.error).toBe('done');
    expect(target.countOf('/no-google/x')).toBe(0);
    expect(target.countOf('/no-others/y')).toBe(1);
    expect(target.countOf('/open')).toBe(1);
    expect(target.log.length).toBeGreaterThan(0);
    for (const entry of target.log) expect(entry.userAgent, entry.path).toMatch(/^Mozilla\/5\.0 \(Linux; Android 6\.0\.1; Nexus 5X.*\(compatible; Googlebot\/2\.1; \+http:\/\/www\.google\.com\/bot\.html\)$/);
  });
});
