// Behind a reverse proxy (docs/production.md, "Behind a reverse proxy"): with PAGEGRADE_TRUST_PROXY
// the limits keyed by the client's address (wrong report passwords, PDFs) count the address the
// proxy appended to X-Forwarded-For, never what the client wrote there itself; a setting that is
// none of the accepted forms stops the server and `pagegrade worker` before they start.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustProxy } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { runInProcess } from '../cli/run-cli.ts';

const SECRET = 'correct horse battery staple';
const NO_CHROMIUM = '/nonexistent/chromium';
const FAKE_PDF = Buffer.from('%PDF-1.7\n% stand-in\n');

/** What each request's client wrote in X-Forwarded-For itself: never the same twice. */
let written = 0;
const rotatedForwardedFor = () => `203.0.113.${(written += 1) % 250}, 192.0.2.${written % 250}`;

/**
 * A browser whose requests reach the app through a proxy at `proxy` that appends the address it sees
 * (`client`) to the X-Forwarded-For the browser wrote, as nginx's $proxy_add_x_forwarded_for does.
 * Keeps cookies and the last form's CSRF token.
 */
class BrowserBehindProxy {
  private readonly cookies = new Map<string, string>();
  private csrf: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly client: string,
    private readonly proxy = '127.0.0.1',
  ) {}

  private async send(method: 'GET' | 'POST', url: string, payload?: string): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.proxy,
      headers: {
        accept: 'text/html',
        'x-forwarded-for': `${rotatedForwardedFor()}, ${this.client}`,
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      payload,
    });
    for (const cookie of response.cookies) this.cookies.set(cookie.name, cookie.value);
    this.csrf = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1] ?? this.csrf;
    return response;
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.send('GET', url);
  }

  post(url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.send('POST', url, new URLSearchParams({ ...fields, _csrf: this.csrf ?? '' }).toString());
  }
}

describe.each<[string, TrustProxy]>([
  ['1', 'one-local-proxy'],
  ['127.0.0.1,::1', ['127.0.0.1', '::1']],
])('PAGEGRADE_TRUST_PROXY=%s, a proxy on 127.0.0.1 that appends the address it sees', (_value, trustProxy) => {
  let t: TestApp;
  let site: Site;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { trustProxy, chromiumPath: NO_CHROMIUM, workers: 0 });
    // The PDF route asks the services for a printer on each request: a stand-in, no browser needed.
    Object.assign(t.app.services.rendering, { pdf: async () => FAKE_PDF });
    site = await startSite({ '/': html(goodPage()) });
    owner = await t.createAccount('owner');
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('counts wrong passwords by the address the proxy appended: 403 x5, then 429 even to the right one; another client keeps its tries', async () => {
    const { id } = await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 2, password: SECRET });
    const guesser = new BrowserBehindProxy(t.app, '198.51.100.7');
    expect((await guesser.get(`/reports/${id}`)).statusCode).toBe(200);
    const answers: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt += 1) answers.push((await guesser.post(`/reports/${id}/unlock`, { password: `guess ${attempt}` })).statusCode);
    expect(answers).toEqual([403, 403, 403, 403, 403, 429]);
    const right = await guesser.post(`/reports/${id}/unlock`, { password: SECRET });
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);

    const other = new BrowserBehindProxy(t.app, '198.51.100.8');
    await other.get(`/reports/${id}`);
    expect((await other.post(`/reports/${id}/unlock`, { password: 'wrong' })).statusCode).toBe(403);
    expect((await other.post(`/reports/${id}/unlock`, { password: SECRET })).statusCode).toBe(303);
  });

  it('counts PDFs by the address the proxy appended: 200 x10, then 429; another client still gets its PDF', async () => {
    const { id } = await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 0 });
    const reader = new BrowserBehindProxy(t.app, '198.51.100.17');
    const answers: number[] = [];
    for (let i = 0; i < 11; i += 1) answers.push((await reader.get(`/reports/${id}.pdf`)).statusCode);
    expect(answers).toEqual([...Array(10).fill(200), 429]);
    const other = await new BrowserBehindProxy(t.app, '198.51.100.18').get(`/reports/${id}.pdf`);
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.equals(FAKE_PDF)).toBe(true);
  });
});

describe('a setting that is none of the accepted forms', () => {
  const NAMES_THE_FORMS = /PAGEGRADE_TRUST_PROXY must be 0 \(off\), 1 \(one proxy on this machine\) or a comma-separated list/;

  it.each([['serve'], ['worker']])('stops `pagegrade %s` before it starts, exit 1 with a sentence naming the setting and its forms', async (command) => {
    for (const value of ['true', '2', '10.0.0.0/8,10.0.0.300']) {
      // Port 0 in case the setting were taken: the test would then hang on a server, not clash with one.
      const run = await runInProcess([command], { PAGEGRADE_TRUST_PROXY: value, PORT: '0' });
      expect(run.code, value).toBe(1);
      expect(run.stderr).toMatch(NAMES_THE_FORMS);
      expect(run.stderr).toContain('loopback, linklocal, uniquelocal');
    }
  });
});
