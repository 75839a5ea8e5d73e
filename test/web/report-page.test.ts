// The report page /reports/{id} through real routing: who may see what (public, private, password),
// the one not-found answer, the password form with its cookie and attempt limit, and escaping of
// everything that came from the analysed page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectNoInlineCode, setCookieLine, type Response } from './web-client.ts';

const SECRET = 'correct horse battery staple';

/** A page whose every text is an attempt to run script in whoever views its report. */
const HOSTILE_PAGE = `<!doctype html><html lang="en"><head>
<title><script>window.__pwned = 1</script> "Quoted" & <b>bold</b></title>
<meta name="description" content='"><img src=x onerror="window.__pwned=2"> a description'>
</head><body><h1><svg onload="window.__pwned=3">Heading</svg></h1>
<a href="javascript:window.__pwned=4">click here</a>
<img src="x.png" onerror="window.__pwned=5">
</body></html>`;

/** Status, headers and body, minus what differs per request (date, request id). */
function comparable(response: Response) {
  const { date: _date, 'x-request-id': _id, ...headers } = response.headers;
  return { status: response.statusCode, headers, body: response.body };
}

describe.each(testDialects())('report page [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;
  let publicId: number;
  let privateId: number;
  let passwordId: number;
  let hostileId: number;

  async function createReport(path: string, privacy: 0 | 1 | 2, password?: string): Promise<number> {
    const report = await t.app.services.reports.create(owner.id, { url: site.url(path), privacy, password });
    return report.id;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({
      '/public': html(goodPage('A public page about fresh mountain coffee')),
      '/private': html(goodPage('A private page about secret coffee plans')),
      '/password': html(goodPage('A password page about coffee prices')),
      '/hostile': html(HOSTILE_PAGE),
    });
    owner = await t.createAccount('owner');
    publicId = await createReport('/public', 0);
    privateId = await createReport('/private', 1);
    passwordId = await createReport('/password', 2, SECRET);
    hostileId = await createReport('/hostile', 0);
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  describe('a public report', () => {
    it('is shown to anyone with the link, with a title naming the URL, score and verdict', async () => {
      const response = await new WebClient(t.app).get(`/reports/${publicId}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      const report = await t.app.services.reports.show(owner.id, publicId);
      const shortUrl = site.url('/public').replace('http://', '');
      expect(response.body).toContain(
        `<title>SEO report for ${shortUrl} — ${report.score}/100 (${report.result}) · pagegrade</title>`,
      );
      expect(response.body).toMatch(/<meta name="description" content="SEO report for [^"]+: \d+\/100/);
      expect(response.body).toContain('<meta name="robots" content="noindex">');
      expect(response.body).toContain(`aria-label="Score ${report.score} out of 100"`);
    });

    it('lists the four categories, each check with its status, and the page facts', async () => {
      const { body } = await new WebClient(t.app).get(`/reports/${publicId}`);
      for (const category of ['SEO', 'Performance', 'Security', 'Miscellaneous']) {
        expect(body).toContain(`>${category}</h2>`);
      }
      const report = await t.app.services.reports.show(owner.id, publicId);
      if (report.results === null || report.page === null) throw new Error('the report was analysed on create');
      const failed = Object.values(report.results).filter((result) => result.passed === false).length;
      expect(body.match(/class="check check--failed"/g) ?? []).toHaveLength(failed);
      expect(body.match(/class="check check--/g) ?? []).toHaveLength(Object.keys(report.results).length);
      expect(body).toContain('The page as fetched');
      expect(body).toContain(`HTTP/${report.page.http_version}`);
    });

    it('lists failed checks before passed ones within a category', async () => {
      const { body } = await new WebClient(t.app).get(`/reports/${publicId}`);
      const seo = body.slice(body.indexOf('id="category-seo"'), body.indexOf('id="category-performance"'));
      const statuses = [...seo.matchAll(/class="check check--([a-z-]+)"/g)].map((match) => match[1]);
      const rank = { failed: 0, passed: 1, 'not-applicable': 2 } as Record<string, number>;
      expect(statuses.length).toBeGreaterThan(3);
      expect(statuses).toEqual([...statuses].sort((a, b) => rank[a] - rank[b]));
    });

    it('carries a strict Content-Security-Policy and no inline script or style', async () => {
      const response = await new WebClient(t.app).get(`/reports/${publicId}`);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expectNoInlineCode(response.body);
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });

  describe('text from the analysed page', () => {
    it('is escaped everywhere: no tag, attribute or javascript: link of the page survives', async () => {
      const { body, statusCode } = await new WebClient(t.app).get(`/reports/${hostileId}`);
      expect(statusCode).toBe(200);
      expect(body).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
      expect(body).not.toContain('<script>window.__pwned');
      expect(body).not.toContain('<b>bold</b>');
      expect(body).not.toMatch(/<img[^>]*src=x/i);
      expect(body).not.toMatch(/href="javascript:/i);
      expect(body).toContain('javascript:window.__pwned=4');
      expectNoInlineCode(body);
    });
  });

  describe('a private report', () => {
    it('is shown to its owner, signed in', async () => {
      const browser = new WebClient(t.app);
      await browser.signIn(owner.key);
      const response = await browser.get(`/reports/${privateId}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('secret coffee plans');
      expect(response.body).toContain(`href="/dashboard/reports/${privateId}"`);
    });

    it('is, to everyone else, the same not-found page as a missing id, a malformed id or an unknown path', async () => {
      const stranger = new WebClient(t.app);
      const otherAccount = new WebClient(t.app);
      await otherAccount.signIn((await t.createAccount('other')).key);

      const reference = comparable(await stranger.get('/reports/987654321'));
      expect(reference.status).toBe(404);
      expect(reference.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(reference.body).toContain('<h1>Not found</h1>');
      const answers = [
        await stranger.get(`/reports/${privateId}`),
        await otherAccount.get(`/reports/${privateId}`),
        await stranger.get('/reports/abc'),
        await stranger.get('/reports/0'),
        await stranger.get('/reports/-1'),
        await stranger.get('/reports/1.5'),
        await stranger.get('/reports/99999999999999999999'),
        await stranger.get('/no-such-page'),
        await stranger.get(`/reports/${privateId}/anything`),
      ];
      for (const answer of answers) expect(comparable(answer)).toEqual(reference);
      expect(reference.body).not.toContain('secret coffee');
      expect(stranger.cookies.size).toBe(0);
    });
  });

  describe('a password-protected report', () => {
    it('asks a stranger for the password, saying nothing about the report', async () => {
      const response = await new WebClient(t.app).get(`/reports/${passwordId}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<title>Password-protected report · pagegrade</title>');
      expect(response.body).toMatch(/<label for="password">Password<\/label>/);
      expect(response.body).not.toContain(site.url('/password').replace('http://', ''));
      expect(response.body).not.toContain('coffee prices');
    });

    it('is shown to its owner without the password', async () => {
      const browser = new WebClient(t.app);
      await browser.signIn(owner.key);
      const response = await browser.get(`/reports/${passwordId}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('coffee prices');
    });

    it('says "Wrong password" to a wrong one and sets no cookie', async () => {
      const browser = new WebClient(t.app, '10.0.0.1');
      await browser.get(`/reports/${passwordId}`);
      const response = await browser.post(`/reports/${passwordId}/unlock`, { password: 'not it' });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('Wrong password.');
      expect(setCookieLine(response, `pagegrade_unlock_${passwordId}`)).toBeUndefined();
      expect(response.body).not.toContain('not it');
    });

    it('opens for this browser session with the right password: an HttpOnly session cookie for this report only', async () => {
      const browser = new WebClient(t.app, '10.0.0.2');
      await browser.get(`/reports/${passwordId}`);
      const response = await browser.post(`/reports/${passwordId}/unlock`, { password: SECRET });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/reports/${passwordId}`);
      const line = setCookieLine(response, `pagegrade_unlock_${passwordId}`) ?? '';
      expect(line).toMatch(/; HttpOnly/i);
      expect(line).toMatch(/; SameSite=Lax/i);
      expect(line).toContain(`; Path=/reports/${passwordId}`);
      expect(line).not.toMatch(/Max-Age|Expires/i);
      expect(line).not.toContain(SECRET);

      const opened = await browser.get(`/reports/${passwordId}`);
      expect(opened.statusCode).toBe(200);
      expect(opened.body).toContain('coffee prices');
      // Another browser (no cookie) still gets the form.
      expect((await new WebClient(t.app).get(`/reports/${passwordId}`)).body).toContain('Password-protected report');
    });

    it('does not let one report\'s unlock cookie open another with the same password', async () => {
      const otherId = await createReport('/password', 2, SECRET);
      const browser = new WebClient(t.app, '10.0.0.3');
      await browser.get(`/reports/${passwordId}`);
      await browser.post(`/reports/${passwordId}/unlock`, { password: SECRET });
      const token = browser.cookies.get(`pagegrade_unlock_${passwordId}`)?.value ?? '';
      const forged = await t.app.inject({
        method: 'GET',
        url: `/reports/${otherId}`,
        headers: { cookie: `pagegrade_unlock_${otherId}=${token}` },
      });
      expect(forged.body).toContain('Password-protected report');
    });

    it('locks again when the owner changes the password', async () => {
      const id = await createReport('/password', 2, SECRET);
      const browser = new WebClient(t.app, '10.0.0.4');
      await browser.get(`/reports/${id}`);
      await browser.post(`/reports/${id}/unlock`, { password: SECRET });
      expect((await browser.get(`/reports/${id}`)).body).toContain('coffee prices');
      await t.app.services.reports.update(owner.id, id, { privacy: 2, password: 'a new secret', regenerate: false });
      const after = await browser.get(`/reports/${id}`);
      expect(after.body).toContain('Password-protected report');
      expect(after.body).not.toContain('coffee prices');
    });

    it('refuses an unlock without a valid CSRF token', async () => {
      const browser = new WebClient(t.app, '10.0.0.5');
      await browser.get(`/reports/${passwordId}`);
      const missing = await browser.post(`/reports/${passwordId}/unlock`, { password: SECRET }, { csrf: false });
      expect(missing.statusCode).toBe(403);
      expect(missing.body).toContain('This form has expired');
      const forged = await browser.post(`/reports/${passwordId}/unlock`, { password: SECRET, _csrf: 'forged-token' });
      expect(forged.statusCode).toBe(403);
      expect(browser.cookies.has(`pagegrade_unlock_${passwordId}`)).toBe(false);
    });

    it('after 5 wrong passwords from one address answers 429 with Retry-After, even to the right one', async () => {
      const id = await createReport('/password', 2, SECRET);
      const attacker = new WebClient(t.app, '10.0.1.1');
      await attacker.get(`/reports/${id}`);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const wrong = await attacker.post(`/reports/${id}/unlock`, { password: `guess ${attempt}` });
        expect(wrong.statusCode, `attempt ${attempt}`).toBe(403);
        expect(wrong.body).toContain('Wrong password.');
      }
      const refused = await attacker.post(`/reports/${id}/unlock`, { password: SECRET });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expect(refused.body).toContain('Too many wrong passwords');
      expect(attacker.cookies.has(`pagegrade_unlock_${id}`)).toBe(false);

      // Another address, and another report from the same address, are not held back.
      const someoneElse = new WebClient(t.app, '10.0.1.2');
      await someoneElse.get(`/reports/${id}`);
      expect((await someoneElse.post(`/reports/${id}/unlock`, { password: SECRET })).statusCode).toBe(303);
      await attacker.get(`/reports/${passwordId}`);
      expect((await attacker.post(`/reports/${passwordId}/unlock`, { password: SECRET })).statusCode).toBe(303);
    });

    it('treats an unlock of a private or missing report as not found, alike', async () => {
      const browser = new WebClient(t.app, '10.0.0.6');
      await browser.get(`/reports/${passwordId}`);
      const missingAnswer = await browser.post('/reports/987654321/unlock', { password: SECRET });
      expect(missingAnswer.statusCode).toBe(404);
      // However often it is tried: no "wrong password" and no 429 that would set a private report apart.
      for (let attempt = 0; attempt < 7; attempt += 1) {
        const privateAnswer = await browser.post(`/reports/${privateId}/unlock`, { password: `guess ${attempt}` });
        expect(comparable(privateAnswer)).toEqual(comparable(missingAnswer));
      }
    });
  });
});
