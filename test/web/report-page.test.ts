// The report page /reports/{id} through real routing: who may see what (public, private, password),
// the one not-found answer, the password form with its cookie and attempt limit, escaping of
// everything that came from the analysed page, the first screen (title, gauges, what to fix first),
// values in words, and the white-label (PAGEGRADE_BRAND_*).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/analysis/types.ts';
import type { Category, Importance } from '../../src/checks/check.ts';
import { checksById } from '../../src/checks/index.ts';
import { escapeHtml } from '../../src/web/html.ts';
import { themeCss } from '../../src/web/routes/brand.ts';
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
    const report = await t.app.services.reports.create(owner.organization, { url: site.url(path), privacy, password });
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
      const report = await t.app.services.reports.show(owner.organization, publicId);
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
      expect(body).not.toContain('>Accessibility</h2>');
      const report = await t.app.services.reports.show(owner.organization, publicId);
      if (report.results === null || report.page === null) throw new Error('the report was analysed on create');
      const shown = Object.values(shownWithoutLab(report.results));
      const failed = shown.filter((result) => result.passed === false).length;
      expect(body.match(/class="check check--failed"/g) ?? []).toHaveLength(failed);
      expect(body.match(/class="check check--/g) ?? []).toHaveLength(shown.length);
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
      expect(setCookieLine(response, `pagegrade_unlock_report_${passwordId}`)).toBeUndefined();
      expect(response.body).not.toContain('not it');
    });

    it('opens for this browser session with the right password: an HttpOnly session cookie for this report only', async () => {
      const browser = new WebClient(t.app, '10.0.0.2');
      await browser.get(`/reports/${passwordId}`);
      const response = await browser.post(`/reports/${passwordId}/unlock`, { password: SECRET });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/reports/${passwordId}`);
      const line = setCookieLine(response, `pagegrade_unlock_report_${passwordId}`) ?? '';
      expect(line).toMatch(/; HttpOnly/i);
      expect(line).toMatch(/; SameSite=Lax/i);
      // Every report's path, so one cookie reaches the page, its runs and its PDF; the name says which report.
      expect(line).toMatch(/; Path=\/reports\/(;|$)/);
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
      const token = browser.cookies.get(`pagegrade_unlock_report_${passwordId}`)?.value ?? '';
      const forged = await t.app.inject({
        method: 'GET',
        url: `/reports/${otherId}`,
        headers: { cookie: `pagegrade_unlock_report_${otherId}=${token}` },
      });
      expect(forged.body).toContain('Password-protected report');
    });

    it('locks again when the owner changes the password', async () => {
      const id = await createReport('/password', 2, SECRET);
      const browser = new WebClient(t.app, '10.0.0.4');
      await browser.get(`/reports/${id}`);
      await browser.post(`/reports/${id}/unlock`, { password: SECRET });
      expect((await browser.get(`/reports/${id}`)).body).toContain('coffee prices');
      await t.app.services.reports.update(owner.organization, id, { privacy: 2, password: 'a new secret', regenerate: false });
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
      expect(browser.cookies.has(`pagegrade_unlock_report_${passwordId}`)).toBe(false);
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
      expect(attacker.cookies.has(`pagegrade_unlock_report_${id}`)).toBe(false);

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

/** A page that fails checks of every importance: no description, 7 images without alt (PNG, no size), a generic link, a <center>. */
const POOR_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Roastery price list and opening hours</title></head>
<body><h1>Roastery</h1><center>Welcome</center>
${Array.from({ length: 7 }, (_, i) => `<img src="/photo-${i}.png">`).join('\n')}
<a href="/more">click here</a></body></html>`;

const WEIGHTS: Record<Importance, number> = { high: 10, medium: 5, low: 2 };
const CATEGORY_NAMES: Record<Category, string> = {
  seo: 'SEO', performance: 'Performance', security: 'Security', miscellaneous: 'Miscellaneous', accessibility: 'Accessibility',
};

/**
 * The results a report without a lab audit shows: all but the Accessibility category's, whose checks
 * apply only with one (the page leaves the category out, gauge and all).
 */
function shownWithoutLab(results: Record<string, CheckResult>): Record<string, CheckResult> {
  return Object.fromEntries(Object.entries(results).filter(([, result]) => result.category !== 'accessibility'));
}

/** The score of docs/checks.md ("Score and verdict") over some results, worked out here rather than taken from the code under test. */
function expectedScore(results: CheckResult[]): number | null {
  const applicable = results.filter((result) => result.passed !== null);
  if (applicable.length === 0) return null;
  const earned = applicable.filter((result) => result.passed).reduce((sum, result) => sum + WEIGHTS[result.importance], 0);
  return Math.round((100 * earned) / applicable.reduce((sum, result) => sum + WEIGHTS[result.importance], 0));
}

/** The markup between an element's opening tag, found by `marker`, and the next `end`. */
function between(body: string, marker: string, end: string): string {
  const start = body.indexOf(marker);
  if (start === -1) throw new Error(`no ${marker} in the page`);
  return body.slice(start, body.indexOf(end, start));
}

/** The markup of one check's item in its category's list. */
function checkItem(body: string, id: string): string {
  const start = body.indexOf(`id="check-${id}"`);
  if (start === -1) throw new Error(`no check ${id} in the page`);
  const ends = ['<li class="check ', '</ol>'].map((end) => body.indexOf(end, start)).filter((at) => at !== -1);
  return body.slice(start, Math.min(...ends));
}

describe('the report page as a document', () => {
  let t: TestApp;
  let site: Site;
  let poorId: number;
  let results: Record<string, CheckResult>;
  let body: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    site = await startSite({ '/poor': html(POOR_PAGE) });
    const owner = await t.createAccount('document');
    poorId = (await t.app.services.reports.create(owner.organization, { url: site.url('/poor'), privacy: 0 })).id;
    const report = await t.app.services.reports.show(owner.organization, poorId);
    if (report.results === null) throw new Error('the report was analysed on create');
    results = report.results;
    body = (await new WebClient(t.app).get(`/reports/${poorId}`)).body;
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('has the page title as its headline and the URL under it', () => {
    expect(body).toContain('<h1 class="report-title">Roastery price list and opening hours</h1>');
    expect(body).toMatch(new RegExp(`<p class="report-url"><a href="${site.url('/poor')}"[^>]*>${site.url('/poor')}</a></p>`));
    expect(body.match(/<h1[\s>]/g)).toHaveLength(1);
  });

  it('shows a gauge per category with its score, in words for screen readers and as the number drawn', () => {
    const gauges = between(body, '<ul class="gauges">', '</ul>');
    const shown = [...gauges.matchAll(/data-category="([a-z]+)"[\s\S]*?aria-label="([^"]+)"[\s\S]*?<text class="gauge-value"[^>]*>([^<]+)<\/text>/g)].map(
      (match) => [match[1], match[2], match[3]],
    );
    const expected = (Object.keys(CATEGORY_NAMES) as Category[]).filter((category) => category !== 'accessibility').map((category) => {
      const score = expectedScore(Object.values(results).filter((result) => result.category === category));
      return [category, `${CATEGORY_NAMES[category]}: ${score === null ? 'no check applies' : `${score} out of 100`}`, score === null ? '–' : String(score)];
    });
    expect(shown).toEqual(expected);
    // The poor page is not perfect anywhere it matters: a gauge that always said 100 would fail here.
    expect(expected.some(([, , score]) => score !== '100' && score !== '–')).toBe(true);
  });

  it('lists what to fix first: the failed checks worth most points, ties by importance then id, each linked to its details', () => {
    const section = between(body, '<section class="fix-first"', '</section>');
    const listed = [...section.matchAll(/data-check="([^"]+)"/g)].map((match) => match[1]);
    const rank: Record<Importance, number> = { high: 0, medium: 1, low: 2 };
    const failed = Object.entries(results).filter(([, result]) => result.passed === false);
    const expected = failed
      .sort(([a, ra], [b, rb]) => WEIGHTS[rb.importance] - WEIGHTS[ra.importance] || rank[ra.importance] - rank[rb.importance] || (a < b ? -1 : 1))
      .map(([id]) => id)
      .slice(0, 5);
    expect(failed.length).toBeGreaterThan(5);
    expect(listed).toEqual(expected);
    for (const id of listed) {
      expect(section).toContain(`<a class="fix-title" href="#check-${id}">${escapeHtml(checksById.get(id)?.failureTitle ?? '')}</a>`);
      expect(body).toContain(`id="check-${id}"`);
    }
    expect(section).toContain(`${failed.length - 5} more failed check`);
  });

  it('names what was measured and found in the words of each check, never by field name', () => {
    let labelled = 0;
    for (const [id, result] of Object.entries(shownWithoutLab(results))) {
      const labels = checksById.get(id)?.labels ?? {};
      const item = checkItem(body, id);
      const value = result.value !== null && typeof result.value === 'object' && !Array.isArray(result.value) ? result.value : {};
      for (const key of Object.keys(value)) {
        if (labels[key] === undefined) continue;
        expect(item, `${id}.${key}`).toContain(`<dt>${escapeHtml(labels[key])}</dt>`);
        labelled += 1;
      }
      for (const kind of Object.keys(result.errors ?? {})) {
        expect(item, `${id} errors.${kind}`).toContain(`<p class="offending-kind">${escapeHtml(labels[kind])} <span`);
      }
    }
    expect(labelled).toBeGreaterThan(50);
    expect(body).not.toContain('Unknown urls');
    expect(body).not.toMatch(/<dt>[^<]*_[^<]*<\/dt>/);
  });

  it('folds a long list of offending items behind its count', () => {
    const images = checkItem(body, 'image_keywords');
    expect(images).toMatch(/<details class="long-list"><summary>7 items<\/summary><ul class="offending-items">(<li>[\s\S]*?<\/li>){7}<\/ul><\/details>/);
    // A short list stays open.
    const linkText = checkItem(body, 'link_text');
    expect(linkText).toContain('<p class="offending-kind">Links with generic text <span class="offending-count">(1)</span></p>');
    expect(linkText).not.toContain('long-list');
  });

  it('serves no logo and no theme when no brand is set', async () => {
    const client = new WebClient(t.app);
    expect((await client.get('/brand/logo')).statusCode).toBe(404);
    expect((await client.get('/brand/theme.css')).statusCode).toBe(404);
    expect(body).toContain('Made with pagegrade');
    expect(body).not.toContain('/brand/');
  });
});

describe('a white-labelled report (PAGEGRADE_BRAND_*)', () => {
  const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0b7a75"/></svg>';
  let t: TestApp;
  let site: Site;
  let directory: string;
  let body: string;

  let reportId: number;
  let protectedId: number;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pagegrade-brand-'));
    const logoPath = join(directory, 'acme.svg');
    await writeFile(logoPath, LOGO);
    t = await startTestApp('sqlite', { brand: { name: 'Acme <SEO> & Co', logoPath, color: '#0b7a75' } });
    site = await startSite({ '/': html(goodPage()) });
    const owner = await t.createAccount('agency');
    reportId = (await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 0 })).id;
    protectedId = (await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 2, password: 'client-secret' })).id;
    body = (await new WebClient(t.app).get(`/reports/${reportId}`)).body;
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('puts the agency name and logo in the header, and its name in the footer and title, in place of pagegrade', () => {
    const header = between(body, '<header class="site-header">', '</header>');
    expect(header).toMatch(/<img class="brand-logo" src="\/brand\/logo\?v=[0-9a-f]{12}" alt="" height="32"><span class="brand-name">Acme &lt;SEO&gt; &amp; Co<\/span>/);
    expect(header).not.toContain('brand-mark');
    expect(header).not.toContain('pagegrade');
    const footer = between(body, '<footer class="site-footer">', '</footer>');
    expect(footer).toContain('Report by <span class="brand-credit">Acme &lt;SEO&gt; &amp; Co</span>.');
    expect(footer).not.toContain('pagegrade');
    expect(body).toMatch(/<title>SEO report for [^<]+ · Acme &lt;SEO&gt; &amp; Co<\/title>/);
  });

  it('wears the brand on every page a client reaches from the link: the password form, the runs, a comparison', async () => {
    const client = new WebClient(t.app);
    for (const path of [`/reports/${protectedId}`, `/reports/${reportId}/runs`, `/reports/${reportId}/compare`]) {
      const page = (await client.get(path)).body;
      expect(between(page, '<header class="site-header">', '</header>'), path).toContain('<span class="brand-name">Acme &lt;SEO&gt; &amp; Co</span>');
      expect(page, path).toMatch(/<title>[^<]+ · Acme &lt;SEO&gt; &amp; Co<\/title>/);
      expect(page, path).not.toContain('pagegrade');
    }
  });

  it('serves the logo with its type, nosniff and a sandbox, cached by its hash', async () => {
    const src = /src="(\/brand\/logo\?v=[0-9a-f]+)"/.exec(body)?.[1] ?? '';
    const response = await new WebClient(t.app).get(src);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(String(response.headers['content-security-policy'])).toMatch(/(^|;\s*)sandbox(;|$)/);
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.body).toBe(await readFile(join(directory, 'acme.svg'), 'utf8'));
  });

  it('sets the colour through a stylesheet of its own, which the Content-Security-Policy allows', async () => {
    const href = /<link rel="stylesheet" href="(\/brand\/theme\.css\?v=[0-9a-f]{12})">/.exec(body)?.[1];
    expect(href).toBeDefined();
    const response = await new WebClient(t.app).get(href ?? '');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.body).toContain('--brand: #0b7a75;');
    expect(response.body).toContain('--accent: #0b7a75;');
    expect(String(response.headers['content-security-policy'])).toContain("style-src 'self'");
    expectNoInlineCode(body);
  });

  it('keeps a colour too pale for text on white out of links and buttons, marking only the header with it', () => {
    expect(themeCss('#ffe066')).toContain('--brand: #ffe066;');
    expect(themeCss('#ffe066')).not.toContain('--accent');
    expect(themeCss('#0b7a75')).toContain('--accent: #0b7a75;');
  });
});
