// render=1 through the API and the report page (render=1, docs/api.md): a page whose scripts build its
// title, h1, links and JSON-LD is flagged with what changed; a server-rendered page passes; async=1
// and results=1 render too; the report page shows the comparison. Without Chromium, render=1 is a
// 422 that says so and everything else works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { body, call, expectInvalid, type Account, type Body } from '../support/api-fixtures.ts';
import { chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { html, startSite, type Site } from '../support/site-server.ts';
import { JS_BUILT_ROUTES, SERVER_RENDERED } from './pages.ts';

const RENDER_TEST_MS = 60_000;

describe('render=1 without Chromium on the server', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { chromiumPath: '/nonexistent/chromium' });
    site = await startSite({ '/': html(SERVER_RENDERED) });
    account = await t.createAccount();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('is a 422 on render saying so, on create and on results=1; everything else works', async () => {
    const refused = expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), render: 1 }), 'render');
    expect(refused).toEqual(['Rendering is not available on this server.']);
    const created = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), render: 0 });
    expect(created.statusCode).toBe(201);
    const report = body(created).data;
    expect(report.rendered).toBeNull();
    expect(report.results.javascript_dependency).toMatchObject({ passed: null, reason: expect.stringContaining('render=1') });
    expectInvalid(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1, render: 1 }), 'render');
    expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), render: 1, async: 1 }), 'render');
    // Nothing was stored by the refused requests.
    expect(body(await call(t, account, 'GET', '/api/v1/reports')).meta.total).toBe(1);
  });

  it('refuses render values other than 0 and 1', async () => {
    const messages = expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), render: 2 }), 'render');
    expect(messages).toEqual(['The render must be one of: 0, 1.']);
    expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), render: 'yes' }), 'render');
  });
});

whenChromiumMissing('render=1 in Chromium');

describe.runIf(chromiumInstalled)('render=1 in Chromium', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    site = await startSite({ ...JS_BUILT_ROUTES, '/ssr': html(SERVER_RENDERED) });
    account = await t.createAccount();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  async function waitUntilSettled(id: number): Promise<Body> {
    for (let attempt = 0; attempt < 300; attempt++) {
      const report = body(await call(t, account, 'GET', `/api/v1/reports/${id}`)).data;
      if (report.state === 'done' || report.state === 'failed') return report;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`report ${id} did not settle`);
  }

  it('flags a page whose scripts build its title, h1, links and JSON-LD, saying what changed', { timeout: RENDER_TEST_MS }, async () => {
    const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/spa'), render: 1 });
    expect(response.statusCode, response.body).toBe(201);
    const report = body(response).data;
    expect(report.rendered).toEqual({
      title: { raw: 'Loading…', rendered: 'Mountain coffee, roasted every morning' },
      meta_description: { raw: null, rendered: 'Mountain coffee from small farms, roasted every morning and sent the same day.' },
      canonical: { raw: null, rendered: site.url('/coffee') },
      robots: { raw: null, rendered: null },
      h1: { raw: [], rendered: ['Mountain coffee'] },
      links: {
        raw: 0,
        rendered: 12,
        only_rendered: Array.from({ length: 12 }, (_, i) => site.url(`/coffee/${i}`)),
        internal: { raw: 0, rendered: 12, only_rendered: 12 },
      },
      words: { raw: 1, rendered: expect.any(Number) },
      json_ld_types: { raw: [], rendered: ['Product'] },
    });
    expect(report.rendered.words.rendered).toBeGreaterThan(400);
    const check = report.results.javascript_dependency;
    expect(check).toMatchObject({
      passed: false,
      importance: 'medium',
      category: 'seo',
      value: { changed: ['title', 'meta_description', 'canonical', 'h1'], internal_links_in_raw_percent: 0, words_in_raw_percent: 0 },
    });
    expect(Object.keys(check.errors)).toEqual(['changed', 'links_only_after_javascript', 'words_only_after_javascript']);
    // The other checks judge the raw HTML, as search engines first see it.
    expect(report.results.title.value).toMatchObject({ title: 'Loading…' });

    const shown = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}`)).data;
    expect(shown.rendered).toEqual(report.rendered);
    expect(shown.results.javascript_dependency).toEqual(check);
  });

  it('passes a server-rendered page, and shows the comparison on the report page', { timeout: RENDER_TEST_MS }, async () => {
    const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/ssr'), render: 1 });
    expect(response.statusCode, response.body).toBe(201);
    const report = body(response).data;
    expect(report.rendered.title.raw).toBe(report.rendered.title.rendered);
    expect(report.rendered.links).toMatchObject({ only_rendered: [], internal: { only_rendered: 0 } });
    expect(report.results.javascript_dependency).toEqual({
      passed: true,
      importance: 'medium',
      category: 'seo',
      value: { changed: [], internal_links_in_raw_percent: 100, words_in_raw_percent: 100 },
      errors: null,
    });

    const page = await t.app.inject({ method: 'GET', url: `/reports/${report.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('What JavaScript changes');
    expect(page.body).toContain('Search engines see the same page before and after JavaScript runs.');
    expect(page.body).not.toContain('rendered-row--changed');
  });

  it('marks what changed on the report page of a page built by scripts', { timeout: RENDER_TEST_MS }, async () => {
    const report = body(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/spa'), render: 1 })).data;
    const page = (await t.app.inject({ method: 'GET', url: `/reports/${report.id}` })).body;
    expect(page).toContain('JavaScript changes 7 of 8: title, meta description, canonical, h1, links, words, JSON-LD types.');
    // Robots meta is the one row the same before and after.
    expect(page.match(/rendered-row--changed/g)).toHaveLength(7);
    expect(page).toMatch(/<th scope="row">Robots meta<\/th>\s*<td data-label="Raw HTML">\(none\)<\/td>\s*<td data-label="After JavaScript"><span class="muted">same<\/span>/);
    expect(page).toContain(site.url('/coffee/11'));
  });

  it('renders in the background with async=1, and again on results=1, each run keeping its own', { timeout: RENDER_TEST_MS }, async () => {
    const queued = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/spa'), render: 1, async: 1 });
    expect(queued.statusCode, queued.body).toBe(202);
    const id = body(queued).data.id;
    const done = await waitUntilSettled(id);
    expect(done.state).toBe('done');
    expect(done.rendered.h1).toEqual({ raw: [], rendered: ['Mountain coffee'] });

    // results=1 without render: the new run is not rendered, the first run keeps its rendering.
    const plain = body(await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1 })).data;
    expect(plain.rendered).toBeNull();
    expect(plain.results.javascript_dependency.passed).toBeNull();
    const rerendered = body(await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1, render: 1 })).data;
    expect(rerendered.rendered.title.rendered).toBe('Mountain coffee, roasted every morning');

    const runs = body(await call(t, account, 'GET', `/api/v1/reports/${id}/runs`)).data;
    expect(runs).toHaveLength(3);
    const first = body(await call(t, account, 'GET', `/api/v1/reports/${id}/runs/${runs[2].id}`)).data;
    const second = body(await call(t, account, 'GET', `/api/v1/reports/${id}/runs/${runs[1].id}`)).data;
    expect(first.rendered.h1.rendered).toEqual(['Mountain coffee']);
    expect(second.rendered).toBeNull();

    const queuedAgain = await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1, async: 1, render: 1 });
    expect(queuedAgain.statusCode).toBe(202);
    expect((await waitUntilSettled(id)).rendered.links.rendered).toBe(12);
  });
});
