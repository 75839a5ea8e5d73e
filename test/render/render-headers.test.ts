// A crawl's request headers and user agent in the browser (docs/crawls.md, "Scope and request
// headers"): with render=1 the browser's requests to the crawled host carry the headers, a Cookie
// included, and the crawl's User-Agent, whoever makes them (the page, its script, a frame of another
// host, a worker); its requests to another host never carry the headers, a redirect hop from the
// crawled host to another included. Two loopback sites on two ports are two hosts; the frame is of
// localhost, another site, so it runs in a process of its own.
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFetchedPageAnalyzer } from '../../src/analysis/analyze-url.ts';
import { DEFAULT_THRESHOLDS } from '../../src/checks/thresholds.ts';
import { fetchPageBody } from '../../src/fetch/fetch-page.ts';
import type { FetchOptions } from '../../src/fetch/options.ts';
import { renderFailed } from '../../src/render/compare-rendered.ts';
import { createRenderer, type BrowserRequests, type Renderer } from '../../src/render/renderer.ts';
import { CHROMIUM, chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { startSite, type Handler, type Site } from '../support/site-server.ts';
import { waitFor } from '../queue/engines.ts';

const TEST_MS = 60_000;
const SECRET = 's=secret-value';
const SERVER_AGENT = 'pagegrade-server-agent';
const CRAWL_AGENT = 'Mozilla/5.0 (compatible; crawl-agent-under-test)';

const FETCH: FetchOptions = { timeoutMs: 8_000, maxBytes: 1024 * 1024, userAgent: SERVER_AGENT, allowPrivate: true };

whenChromiumMissing('a crawl\'s request headers in the browser');

describe.runIf(chromiumInstalled)('a crawl\'s request headers in the browser', () => {
  let staging: Site;
  let other: Site;
  let renderer: Renderer;
  /** Every request either site answered: which site, the path, the headers. */
  let seen: { site: 'staging' | 'other'; path: string; headers: IncomingHttpHeaders }[] = [];

  const recorded = (site: 'staging' | 'other', type: string, body: string | (() => string), extra: Record<string, string> = {}): Handler =>
    (request, response) => {
      seen.push({ site, path: request.url ?? '', headers: request.headers });
      response.writeHead(200, { 'content-type': type, ...extra }).end(typeof body === 'string' ? body : body());
    };
  const redirect = (site: 'staging' | 'other', to: () => string): Handler => (request, response) => {
    seen.push({ site, path: request.url ?? '', headers: request.headers });
    response.writeHead(302, { location: to() }).end();
  };

  beforeAll(async () => {
    staging = await startSite({});
    other = await startSite({});
    const js = 'text/javascript';
    staging.route('/', recorded('staging', 'text/html; charset=utf-8', () => `<!doctype html><html><head><title>Staging home</title>
<script src="/own.js"></script>
<script src="${other.url('/other.js')}"></script>
<script src="/hop.js"></script>
</head><body><h1>Staging</h1><img src="/pixel.png" alt="">
<iframe src="${other.url('/frame').replace('127.0.0.1', 'localhost')}"></iframe>
<script>fetch('/data.json'); new Worker('/worker.js');</script>
</body></html>`));
    staging.route('/own.js', recorded('staging', js, 'window.own = true;'));
    staging.route('/hop.js', redirect('staging', () => other.url('/hop-target.js')));
    staging.route('/data.json', recorded('staging', 'application/json', '{}'));
    staging.route('/worker.js', recorded('staging', js, "fetch('/from-worker.json');"));
    staging.route('/from-worker.json', recorded('staging', 'application/json', '{}'));
    staging.route('/from-frame.js', recorded('staging', js, 'window.framed = true;'));
    staging.route('/pixel.png', recorded('staging', 'image/png', 'x'));
    other.route('/other.js', recorded('other', js, 'window.other = true;'));
    other.route('/hop-target.js', recorded('other', js, 'window.hopped = true;'));
    other.route('/frame', recorded('other', 'text/html', () => `<!doctype html><title>Frame</title><script src="${staging.url('/from-frame.js')}"></script>`));
    renderer = createRenderer({ chromiumPath: CHROMIUM, concurrency: 1, labConcurrency: 1, labTimeoutMs: 10_000, fetch: FETCH })!;
  });
  afterAll(async () => {
    await renderer?.close();
    await staging?.close();
    await other?.close();
  });
  beforeEach(() => {
    seen = [];
  });

  const crawlRequests = (): BrowserRequests => ({
    userAgent: CRAWL_AGENT,
    hostHeaders: { hosts: [new URL(staging.origin).host], headers: { cookie: SECRET, 'x-staging-token': 'letmein' } },
  });
  const STAGING_PATHS = ['/', '/own.js', '/hop.js', '/data.json', '/worker.js', '/from-worker.json', '/from-frame.js'];
  const OTHER_PATHS = ['/other.js', '/hop-target.js', '/frame'];

  /** Once every request of the page came (the worker's may come after the page settled). */
  async function allRequests(): Promise<typeof seen> {
    await waitFor(() => [...STAGING_PATHS, ...OTHER_PATHS].every((path) => seen.some((request) => request.path === path)), 'every request of the page');
    return seen;
  }

  it('sends the headers and the User-Agent on the requests to the crawled host, never to another', { timeout: TEST_MS }, async () => {
    const rendered = await renderer.render(staging.url('/'), undefined, crawlRequests());
    expect(rendered.ok, JSON.stringify(rendered)).toBe(true);
    const requests = await allRequests();
    for (const request of requests.filter((made) => made.site === 'staging')) {
      expect({ path: request.path, cookie: request.headers.cookie, token: request.headers['x-staging-token'] }).toEqual({
        path: request.path,
        cookie: SECRET,
        token: 'letmein',
      });
    }
    for (const request of requests.filter((made) => made.site === 'other')) {
      expect({ path: request.path, cookie: request.headers.cookie, token: request.headers['x-staging-token'] }).toEqual({
        path: request.path,
        cookie: undefined,
        token: undefined,
      });
    }
    expect(new Set(requests.map((request) => request.headers['user-agent']))).toEqual(new Set([CRAWL_AGENT]));
    // Images are refused before they are sent, with headers or without.
    expect(requests.map((request) => request.path)).not.toContain('/pixel.png');
  });

  it('sends none of them, and the server\'s own User-Agent, on a rendering that is not a crawl\'s', { timeout: TEST_MS }, async () => {
    const rendered = await renderer.render(staging.url('/'));
    expect(rendered.ok, JSON.stringify(rendered)).toBe(true);
    const requests = await allRequests();
    expect(requests.filter((request) => request.headers.cookie !== undefined || request.headers['x-staging-token'] !== undefined)).toEqual([]);
    expect(new Set(requests.map((request) => request.headers['user-agent']))).toEqual(new Set([SERVER_AGENT]));
  });

  it('is what a crawl\'s page analysis with render asks the browser for', { timeout: TEST_MS }, async () => {
    const requests = crawlRequests();
    const crawlFetch: FetchOptions = { ...FETCH, ...requests };
    const page = await fetchPageBody(staging.url('/'), crawlFetch);
    const analyze = createFetchedPageAnalyzer({ fetch: FETCH, thresholds: DEFAULT_THRESHOLDS, renderer });
    const analysis = await analyze(page, undefined, { render: true, requests });
    expect(analysis.rendered).toBeDefined();
    expect(renderFailed(analysis.rendered!) ? analysis.rendered.error : null).toBeNull();
    await allRequests();
    // The browser's own requests (the crawler fetched only the page and the origin's files).
    const browsers = seen.filter((request) => request.headers['sec-fetch-mode'] !== undefined);
    expect(browsers.map((request) => request.path)).toEqual(expect.arrayContaining(['/own.js', '/other.js', '/from-frame.js']));
    for (const request of browsers) {
      const toStaging = request.site === 'staging';
      expect({ path: request.path, cookie: request.headers.cookie, agent: request.headers['user-agent'] }).toEqual({
        path: request.path,
        cookie: toStaging ? SECRET : undefined,
        agent: CRAWL_AGENT,
      });
    }
  });
});
