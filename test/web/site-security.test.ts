// What every web response shares: the Content-Security-Policy, assets served from /assets with long
// caching and content-hashed URLs, HTML 404s outside /api (JSON inside), and the web pages kept out
// of the API's OpenAPI document while /docs keeps working.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { NOT_FOUND } from '../support/api-fixtures.ts';
import { goodPage, html, startSite } from '../support/site-server.ts';
import { WebClient, expectLabelledInputs, expectNoInlineCode, expectUniqueIds } from './web-client.ts';

const ASSETS = join(import.meta.dirname, '../../src/web/assets');

describe('web responses', () => {
  let t: TestApp;
  let browser: WebClient;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const account = await t.createAccount();
    browser = new WebClient(t.app);
    await browser.signIn(account.key);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every page has the strict CSP, no inline code, a title, a description, noindex, unique ids and labelled inputs', async () => {
    const account = await t.createAccount('pages');
    const site = await startSite({ '/': html(goodPage()) });
    const report = await t.app.services.reports.create(account.organization, { url: site.url('/'), privacy: 2, password: 'pw' });
    await site.close();
    const [run] = (await t.app.services.lists.runs(account.organization, report.id, { page: 1, perPage: 1 })).items;
    const owner = new WebClient(t.app);
    await owner.signIn(account.key);
    const pages: [WebClient, string][] = [
      [new WebClient(t.app), '/sign-in'],
      [new WebClient(t.app), `/reports/${report.id}`],
      [owner, `/reports/${report.id}`],
      [owner, `/reports/${report.id}/runs`],
      [owner, `/reports/${report.id}/runs/${run.id}`],
      [owner, `/reports/${report.id}/compare`],
      [new WebClient(t.app), `/reports/${report.id}/runs/${run.id}`],
      [owner, `/dashboard/reports/${report.id}`],
      [owner, `/dashboard/reports/${report.id}/delete`],
      [browser, '/dashboard/reports'],
      [owner, '/dashboard/reports'],
      [browser, '/dashboard/reports/new'],
      [owner, '/dashboard/projects'],
      [browser, '/nowhere'],
    ];
    for (const [client, path] of pages) {
      const response = await client.get(path);
      expect(response.statusCode, path).toBeLessThan(500);
      const csp = String(response.headers['content-security-policy']);
      expect(csp, path).toMatch(/(^|;)script-src 'self'(;|$)/);
      expect(csp, path).toMatch(/(^|;)style-src 'self'(;|$)/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("form-action 'self'");
      expect(csp, path).not.toContain('unsafe');
      expectNoInlineCode(response.body);
      expect(response.body, path).toMatch(/<title>[^<]+ · pagegrade<\/title>/);
      expect(response.body, path).toMatch(/<meta name="description" content="[^"]+">/);
      expect(response.body, path).toContain('<meta name="robots" content="noindex">');
      expect(response.body, path).toMatch(/<html lang="en">/);
      expectUniqueIds(response.body);
      expectLabelledInputs(response.body);
    }
  });

  it('serves the stylesheet, script and icon with content-hashed URLs and a year of caching', async () => {
    const page = (await browser.get('/dashboard/reports/new')).body;
    const urls = [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(urls.map((url) => url.split('?')[0]).sort()).toEqual(['/assets/app.css', '/assets/favicon.svg', '/assets/print.css', '/assets/report-forms.js']);
    for (const url of urls) {
      const [path, query] = url.split('?');
      const file = readFileSync(join(ASSETS, path.replace('/assets/', '')));
      expect(query).toBe(`v=${createHash('sha256').update(file).digest('hex').slice(0, 12)}`);
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.rawPayload.equals(file)).toBe(true);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect((await t.app.inject({ method: 'GET', url: '/assets/app.css' })).headers['content-type']).toMatch(/^text\/css/);
    expect((await t.app.inject({ method: 'GET', url: '/assets/report-forms.js' })).headers['content-type']).toMatch(/javascript/);
  });

  it('serves nothing else under /assets/', async () => {
    for (const path of ['/assets/', '/assets/../html.ts', '/assets/%2e%2e/html.ts', '/assets/missing.css']) {
      const response = await t.app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(404);
    }
  });

  it('answers an unknown path with the HTML not-found page, and one under /api with the JSON body', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/what/ever' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const path of ['/api', '/api/nothing', '/api/v1/nothing?x=1']) {
      const api = await t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
      expect(api.statusCode, path).toBe(404);
      expect(api.json(), path).toEqual(NOT_FOUND);
    }
  });

  it('keeps the web pages out of the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path, path).toMatch(/^\/api\/v1\//);
  });

  it('leaves the API documentation at /docs working, with its own policy', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs' });
    const final = response.statusCode >= 300 && response.statusCode < 400
      ? await t.app.inject({ method: 'GET', url: String(response.headers.location) })
      : response;
    expect(final.statusCode).toBe(200);
    expect(final.headers['content-type']).toMatch(/^text\/html/);
    expect(final.body).toContain('swagger');
    const scripts = [...final.body.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const url = script.startsWith('/') ? script : `/docs/${script.replace(/^\.\//, '')}`;
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
  });
});
