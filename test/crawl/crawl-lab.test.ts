// Crawls with lab=1 (docs/lab.md, "Lab audits of a crawl"), end to end: the app takes and stores the
// crawl (it runs no job itself), and a worker of the test's own runs the real crawl jobs on its
// database with a stand-in browser whose lab audits are fixed per page, so no Chromium is needed. The
// pages audited are exactly the round-robin picks across URL templates; each audit becomes part of the
// page's crawl run (its report's latest run shows `lab` and the lab checks; no second run); the crawl
// shows `lab` with each template's p75s; a failed audit keeps the run with the lab checks null; a
// worker that dies mid-audit leaves the rest to the next one, which audits no page twice; schedules
// keep the lab settings; and the 422s, with Chromium and without.
import { FormatRegistry, TypeRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/database.ts';
import { NO_LAB_AUDIT_REASON } from '../../src/checks/lab-audit.ts';
import type { LabMeasurement, LabProfileName } from '../../src/lab/lab-types.ts';
import type { Renderer } from '../../src/render/renderer.ts';
import { AXE_RULES } from '../../src/lab/axe-rules.ts';
import { CrawlResponse } from '../../src/schemas/crawls.ts';
import { scoreResults } from '../../src/scoring/score.ts';
import { listLabPages } from '../../src/repositories/crawl-lab.repository.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { ISO_TIME, body, call, expectInvalid, type Account, type Body } from '../support/api-fixtures.ts';
import { showCrawl, startCrawl } from '../support/crawl-fixtures.ts';
import { testDialects } from '../support/databases.ts';
import { startLabCrawlWorker, type LabCrawlWorker } from '../support/lab-crawl-worker.ts';
import { labMeasurement, labResources, labStandInBrowser } from '../support/lab-fixtures.ts';
import { html, linkingPage, startSite, type Site } from '../support/site-server.ts';

if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => ISO_TIME.test(value));
if (!TypeRegistry.Has('Unsafe')) TypeRegistry.Set<{ enum: unknown[] }>('Unsafe', (schema, value) => schema.enum.includes(value));

const LAB_METRIC_CHECKS = ['largest_contentful_paint', 'cumulative_layout_shift', 'total_blocking_time', 'first_contentful_paint', 'page_weight'];
const isLabCheck = (id: string) => id.startsWith('a11y_') || LAB_METRIC_CHECKS.includes(id);
const UNOBSERVABLE_REASON = 'The lab audit could not load the page: net::ERR_CONNECTION_RESET.';

interface Measured {
  lcp: number | null;
  cls: number;
  tbt: number | null;
  /** the axe rules violated (default image-alt; none: score 100) beside html-has-lang and document-title, which pass */
  violated?: string[];
}

/** Rules of high importance (critical or serious impact) besides the two that always pass: a page violating them all scores low. */
const MANY_RULES = AXE_RULES.filter((rule) => ['critical', 'serious'].includes(rule.impact) && !['html-has-lang', 'document-title'].includes(rule.id))
  .slice(0, 20)
  .map((rule) => rule.id);

const violatedOf = (measured: Measured) => measured.violated ?? ['image-alt'];

/** What the stand-in measures on each page: LCP, CLS, TBT and the accessibility rules as given. */
function measurement(profile: LabProfileName, measured: Measured): LabMeasurement {
  const { lcp, cls, tbt } = measured;
  const painted = lcp !== null;
  return labMeasurement({
    profile,
    metrics: { ttfb_ms: 20, fcp_ms: painted ? 300 : null, lcp_ms: lcp, cls, tbt_ms: tbt, load_ms: 900 },
    lcp_element: painted ? { selector: 'h1', snippet: '<h1>' } : null,
    layout_shifts: cls > 0 ? [{ value: cls, selector: 'main' }] : [],
    resources: labResources({ document: [1, 4000] }),
    accessibility: {
      ok: true,
      rules: {
        ...Object.fromEntries(violatedOf(measured).map((rule) => [rule, { outcome: 'violation', nodes: 1, violations: [{ selector: 'img', snippet: '<img src="a.png">', message: 'Fix this element' }] }])),
        'html-has-lang': { outcome: 'passed' },
        'document-title': { outcome: 'passed' },
      },
    },
  });
}

/** The report's `lab` of such a measurement: the raw verdicts replaced by the accessibility checks' summary. */
function expectedLab(profile: LabProfileName, measured: Measured) {
  const { accessibility: _raw, ...rest } = measurement(profile, measured);
  // Every rule here is of high importance: the passed ones' share of the points.
  const violations = violatedOf(measured).length;
  return { ...rest, accessibility: { score: Math.round((100 * 2) / (violations + 2)), violations, rules_checked: violations + 2 } };
}

interface StandInBrowser extends Renderer {
  /** every lab audit asked for, in order: the page's path and the profile */
  audits: { path: string; profile: LabProfileName }[];
}

/**
 * A browser whose lab audit of a path measures `pages[path]` (any other: LCP 1,000 ms), fails to
 * observe the paths in `failing`, and throws (its worker "dies" there) on the paths in `dying`.
 */
function standInBrowser(pages: Record<string, Measured>, options: { failing?: string[]; dying?: string[] } = {}): StandInBrowser {
  const audits: StandInBrowser['audits'] = [];
  const browser = labStandInBrowser((url, profile) => {
    const { pathname: path } = new URL(url);
    audits.push({ path, profile });
    if (options.dying?.includes(path)) throw new Error('the worker died in the middle of this audit');
    if (options.failing?.includes(path)) return { ok: false, reason: UNOBSERVABLE_REASON };
    return { ok: true, measurement: measurement(profile, pages[path] ?? { lcp: 1000, cls: 0, tbt: 0 }) };
  });
  return { ...browser, audits };
}

/** A shop of templates: the home page, five products, three blog posts of 2024, all one click from home. */
async function shopSite(): Promise<Site> {
  const products = [1, 2, 3, 4, 5].map((n) => `/product/${n}`);
  const posts = [1, 2, 3].map((n) => `/blog/2024/post-${n}`);
  const routes = Object.fromEntries([...products, ...posts].map((path) => [path, html(linkingPage(`The page ${path} of the mountain coffee shop`, ['/']))]));
  return startSite({ '/': html(linkingPage('The mountain coffee shop and its roastery blog', [...products, ...posts])), ...routes });
}

/** Every visited page of the crawl, by path. */
async function pagesOf(t: TestApp, account: Account, crawlId: number): Promise<Record<string, Body>> {
  const pages = body(await call(t, account, 'GET', `/api/v1/crawls/${crawlId}/pages?per_page=100`)).data as Body[];
  return Object.fromEntries(pages.map((page) => [new URL(page.url).pathname, page]));
}

const reportOf = async (t: TestApp, account: Account, id: number): Promise<Body> => body(await call(t, account, 'GET', `/api/v1/reports/${id}`)).data;

function expectMatches(schema: Parameters<typeof Value.Check>[0], value: unknown): void {
  expect([...Value.Errors(schema, value)].map((error) => `${error.path}: ${error.message}`)).toEqual([]);
  expect(Value.Clean(schema, Value.Clone(value))).toEqual(value);
}

describe.each(testDialects())('crawls with lab=1 [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  let db: DbHandle;
  const workers: LabCrawlWorker[] = [];
  const sites: Site[] = [];

  /** A worker of its own (another process, as far as the crawl can tell) with this browser. */
  const worker = (browser: Renderer) => {
    const started = startLabCrawlWorker(t.config, browser);
    workers.push(started);
    return started;
  };
  const site = async (make: () => Promise<Site> = shopSite) => {
    const started = await make();
    sites.push(started);
    return started;
  };

  beforeAll(async () => {
    // No job runs in the app; a browser is "available" (any executable will do): the workers above use their stand-ins.
    t = await startTestApp(dialect, { workers: 0, chromiumPath: process.execPath });
    account = await t.createAccount('lab-crawler');
    db = createDb(t.config.databaseUrl);
  });
  afterAll(async () => {
    for (const started of workers) await started.close();
    await db?.destroy();
    for (const started of sites) await started.close();
    await t?.close();
  });

  it('audits exactly the round-robin picks across URL templates, as part of their crawl runs, and sums them up by template', async () => {
    const shop = await site();
    const measured: Record<string, Measured> = {
      '/': { lcp: 900, cls: 0, tbt: 0 },
      '/blog/2024/post-1': { lcp: 2000, cls: 0.01, tbt: 100 },
      // Nothing painted: no LCP nor TBT, left out of the template's percentiles.
      '/blog/2024/post-2': { lcp: null, cls: 0.2, tbt: null, violated: [] },
      // Slow, shifting and inaccessible: its verdict falls, and its project's tally with it.
      '/product/1': { lcp: 6000, cls: 0.5, tbt: 900, violated: MANY_RULES },
    };
    const browser = standInBrowser(measured);
    const started = await startCrawl(t, account, { url: shop.url('/'), max_pages: 20, lab: 1, lab_pages: 4 });
    expect(started.lab).toEqual({ profile: 'mobile', lab_pages: 4, pages: 0, templates: [] });
    await worker(browser).run(started.id);

    const crawl = await showCrawl(t, account, started.id);
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    expect(crawl.pages_crawled).toBe(9);
    // Templates by their first page (depth, then URL): /, /blog/{n}/post-{n}, /product/{n}; one of each, then the second blog post.
    expect(browser.audits).toEqual(['/', '/blog/2024/post-1', '/product/1', '/blog/2024/post-2'].map((path) => ({ path, profile: 'mobile' })));
    expect(crawl.lab).toEqual({
      profile: 'mobile',
      lab_pages: 4,
      pages: 4,
      templates: [
        { pattern: '/', pages: 1, lcp_ms_p75: 900, cls_p75: 0, tbt_ms_p75: 0, accessibility_score: 67 },
        { pattern: '/blog/{n}/post-{n}', pages: 2, lcp_ms_p75: 2000, cls_p75: 0.2, tbt_ms_p75: 100, accessibility_score: 84 },
        { pattern: '/product/{n}', pages: 1, lcp_ms_p75: 6000, cls_p75: 0.5, tbt_ms_p75: 900, accessibility_score: 9 },
      ],
    });
    expectMatches(CrawlResponse, { data: crawl, status: 200 });
    expect(body(await call(t, account, 'GET', '/api/v1/crawls')).data.find((item: Body) => item.id === crawl.id).lab).toEqual(crawl.lab);

    const pages = await pagesOf(t, account, crawl.id);
    const scores: number[] = [];
    const verdicts = { good: 0, decent: 0, bad: 0 };
    const movedVerdicts: string[] = [];
    for (const [path, page] of Object.entries(pages)) {
      if (page.report_id === null) continue;
      const report = await reportOf(t, account, page.report_id);
      scores.push(report.score);
      verdicts[report.result as keyof typeof verdicts] += 1;
      // The audit is part of the crawl's run: still one run, and the crawl's page row has its score.
      expect(report.runs_count, path).toBe(1);
      expect({ score: page.score, result: page.result }, path).toEqual({ score: report.score, result: report.result });
      expect({ score: report.score, result: report.result, issues: report.issues }, path).toEqual(scoreResults(report.results));
      const [run] = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs`)).data;
      expect(run.trigger).toBe('crawl');
      const shownRun = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs/${run.id}`)).data;
      expect(shownRun.lab, path).toEqual(report.lab);
      expect(shownRun.score).toBe(report.score);
      if (path in measured) {
        expect(report.lab, path).toEqual(expectedLab('mobile', measured[path]));
        expect(report.results.cumulative_layout_shift, path).toMatchObject({ passed: measured[path].cls <= 0.1, category: 'performance' });
        // Violated, or not reported at all (inapplicable).
        expect(report.results.a11y_image_alt, path).toMatchObject({ passed: violatedOf(measured[path]).includes('image-alt') ? false : null, category: 'accessibility' });
        expect(report.results.a11y_html_has_lang.passed, path).toBe(true);
        // What the run scored before its audit: its lab checks did not apply then.
        const before = scoreResults(Object.fromEntries(Object.entries(report.results as Record<string, Body>).map(([id, result]) => [id, isLabCheck(id) ? { ...result, passed: null } : result])));
        if (before.result !== report.result) movedVerdicts.push(path);
      } else {
        expect(report.lab, path).toBeNull();
        for (const [id, result] of Object.entries(report.results as Record<string, Body>)) {
          if (isLabCheck(id)) expect(result, `${path} ${id}`).toMatchObject({ passed: null, reason: NO_LAB_AUDIT_REASON });
        }
      }
    }
    expect(scores).toHaveLength(9);
    // An audit that moved its page's verdict moved the project's tally too.
    expect(movedVerdicts.length).toBeGreaterThan(0);
    const project = (body(await call(t, account, 'GET', '/api/v1/projects?per_page=100')).data as Body[]).find((item) => item.project === crawl.project);
    expect(project).toMatchObject({ reports_count: 9, result_counts: verdicts });
    // The site's score is the mean of its pages' scores, lab checks included.
    expect(crawl.score).toBe(Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length));
    const withLcp = await reportOf(t, account, pages['/blog/2024/post-1'].report_id);
    expect(withLcp.results.largest_contentful_paint).toMatchObject({ passed: true, value: { value: 2000, band: 'good' } });
    const unpainted = await reportOf(t, account, pages['/blog/2024/post-2'].report_id);
    expect(unpainted.results.largest_contentful_paint.passed).toBeNull();
    expect(unpainted.results.cumulative_layout_shift).toMatchObject({ passed: false, value: { value: 0.2, band: 'needs_improvement' } });
  });

  it('takes every page of a template in turn once there are fewer templates than lab_pages, under the profile asked for', async () => {
    const shop = await site();
    const browser = standInBrowser(Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`/product/${n}`, { lcp: 800 + 200 * n, cls: n / 100, tbt: 10 * n }])));
    const started = await startCrawl(t, account, { url: shop.url('/'), max_pages: 20, lab: 1, lab_pages: 200, lab_profile: 'desktop' });
    await worker(browser).run(started.id);
    const crawl = await showCrawl(t, account, started.id);
    expect(browser.audits.map(({ path }) => path)).toEqual([
      '/', '/blog/2024/post-1', '/product/1', '/blog/2024/post-2', '/product/2', '/blog/2024/post-3', '/product/3', '/product/4', '/product/5',
    ]);
    expect(new Set(browser.audits.map(({ profile }) => profile))).toEqual(new Set(['desktop']));
    expect(crawl.lab).toMatchObject({ profile: 'desktop', lab_pages: 200, pages: 9 });
    // Five products: the values at rank ceil(0.75 × 5) = 4.
    expect(crawl.lab.templates[2]).toEqual({ pattern: '/product/{n}', pages: 5, lcp_ms_p75: 1600, cls_p75: 0.04, tbt_ms_p75: 40, accessibility_score: 67 });
    const product = await reportOf(t, account, (await pagesOf(t, account, crawl.id))['/product/5'].report_id);
    expect(product.lab.profile).toBe('desktop');
  });

  it('keeps a page whose audit fails with its run, the lab checks null saying why, and counts it out', async () => {
    const small = await site(() => startSite({
      '/': html(linkingPage('The small site of the coffee roastery', ['/a', '/b'])),
      '/a': html(linkingPage('The first page of the small coffee site', ['/'])),
      '/b': html(linkingPage('The second page of the small coffee site', ['/'])),
    }));
    const browser = standInBrowser({}, { failing: ['/b'] });
    const started = await startCrawl(t, account, { url: small.url('/'), lab: 1, lab_pages: 3 });
    await worker(browser).run(started.id);
    const crawl = await showCrawl(t, account, started.id);
    expect(crawl.state).toBe('done');
    expect(browser.audits.map(({ path }) => path)).toEqual(['/', '/a', '/b']);
    expect(crawl.lab).toMatchObject({ pages: 2, templates: [{ pattern: '/', pages: 1 }, { pattern: '/a', pages: 1 }] });
    const failed = await reportOf(t, account, (await pagesOf(t, account, crawl.id))['/b'].report_id);
    expect(failed).toMatchObject({ state: 'done', runs_count: 1, lab: null });
    for (const [id, result] of Object.entries(failed.results as Record<string, Body>)) {
      if (isLabCheck(id)) expect(result, id).toMatchObject({ passed: null, reason: UNOBSERVABLE_REASON });
    }
    expect({ score: failed.score, result: failed.result }).toEqual({ score: scoreResults(failed.results).score, result: scoreResults(failed.results).result });
    const rows = await listLabPages(db.db, crawl.id);
    expect(rows.map((row) => [row.pick, row.state, row.audited, row.error])).toEqual([
      [0, 'done', 1, null],
      [1, 'done', 1, null],
      [2, 'done', 0, UNOBSERVABLE_REASON],
    ]);
  });

  it('goes on after a worker died mid-audit with the pages not yet audited, auditing none twice', async () => {
    const small = await site(() => startSite({
      '/': html(linkingPage('The home of the resumed coffee site', ['/a', '/b', '/c'])),
      '/a': html(linkingPage('Page a of the resumed coffee site', ['/'])),
      '/b': html(linkingPage('Page b of the resumed coffee site', ['/'])),
      '/c': html(linkingPage('Page c of the resumed coffee site', ['/'])),
    }));
    const dying = standInBrowser({}, { dying: ['/b'] });
    const started = await startCrawl(t, account, { url: small.url('/'), lab: 1, lab_pages: 4 });
    await expect(worker(dying).run(started.id)).rejects.toThrow('the worker died');
    expect(dying.audits.map(({ path }) => path)).toEqual(['/', '/a', '/b']);
    const midway = await showCrawl(t, account, started.id);
    expect(midway).toMatchObject({ state: 'running', lab: { pages: 2 } });

    // Its claim on /b runs out (as the dead process no longer renews it); another worker takes over.
    const past = new Date(Date.now() - 1_000).toISOString();
    expect(Number((await db.db.updateTable('crawl_lab_pages').set({ lease_until: past }).where('crawl_id', '=', started.id).where('state', '=', 'auditing').executeTakeFirst()).numUpdatedRows)).toBe(1);
    const next = standInBrowser({});
    await worker(next).run(started.id);
    expect(next.audits.map(({ path }) => path)).toEqual(['/b', '/c']);
    const crawl = await showCrawl(t, account, started.id);
    expect(crawl).toMatchObject({ state: 'done', lab: { pages: 4 } });
    expect((await listLabPages(db.db, crawl.id)).map((row) => [row.url.slice(small.origin.length), row.attempts, row.audited])).toEqual([
      ['/', 1, 1],
      ['/a', 1, 1],
      ['/b', 2, 1],
      ['/c', 1, 1],
    ]);
  });

  it('a scheduled run of a lab crawl makes its lab audits with the same settings', async () => {
    const small = await site(() => startSite({
      '/': html(linkingPage('The home of the scheduled coffee site', ['/a'])),
      '/a': html(linkingPage('Page a of the scheduled coffee site', ['/'])),
    }));
    const browser = standInBrowser({});
    const started = await startCrawl(t, account, { url: small.url('/'), lab: 1, lab_pages: 1, lab_profile: 'desktop', schedule: 'daily' });
    await worker(browser).run(started.id);
    expect(await t.app.services.crawlSchedules.runDue(new Date(Date.parse(started.next_run_at) + 1_000))).toBe(1);
    const scheduled = (body(await call(t, account, 'GET', '/api/v1/crawls')).data as Body[]).find((crawl) => crawl.previous_crawl_id === started.id);
    expect(scheduled).toMatchObject({ trigger: 'schedule', previous_crawl_id: started.id, lab: { profile: 'desktop', lab_pages: 1, pages: 0, templates: [] } });
    await worker(browser).run(scheduled.id);
    expect(browser.audits).toEqual([{ path: '/', profile: 'desktop' }, { path: '/', profile: 'desktop' }]);
    expect((await showCrawl(t, account, scheduled.id)).lab).toMatchObject({ pages: 1 });
  });

  it('a crawl without lab=1 has lab null and audits nothing', async () => {
    const small = await site(() => startSite({ '/': html(linkingPage('The plain coffee site without a lab', [])) }));
    const browser = standInBrowser({});
    const started = await startCrawl(t, account, { url: small.url('/'), lab: 0, lab_pages: 5, lab_profile: 'desktop' });
    expect(started.lab).toBeNull();
    await worker(browser).run(started.id);
    expect(await showCrawl(t, account, started.id)).toMatchObject({ state: 'done', lab: null });
    expect(browser.audits).toEqual([]);
  });

  it('refuses lab other than 0 and 1, lab_pages outside 1..200 and lab_profile other than mobile and desktop, whenever sent: nothing stored', async () => {
    const url = 'http://127.0.0.1:9/';
    const total = async () => body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total;
    const before = await total();
    expect(expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, lab: 2 }), 'lab')).toEqual(['The lab must be one of: 0, 1.']);
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, lab: 'yes' }), 'lab');
    for (const lab_pages of [0, 201, -1]) {
      expect(expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, lab: 1, lab_pages }), 'lab_pages')).toEqual(['The lab_pages must be an integer from 1 to 200.']);
    }
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, lab_pages: 0 }), 'lab_pages');
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, lab: 1, lab_pages: 'many' }), 'lab_pages');
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, lab: 1, lab_pages: 2.5 }), 'lab_pages');
    for (const fields of [{ lab: 1, lab_profile: 'tablet' }, { lab: 0, lab_profile: 'Mobile' }, { lab_profile: 'tablet' }] as Record<string, string | number>[]) {
      expect(expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, ...fields }), 'lab_profile')).toEqual(['The lab_profile must be one of: mobile, desktop.']);
    }
    // JSON bodies as forms.
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/crawls', headers: { ...account.auth, 'content-type': 'application/json' }, payload: { url, lab: 1, lab_pages: 500 } });
    expectInvalid(json, 'lab_pages');
    expect(await total()).toBe(before);
  });
});

describe('crawls with lab=1 without Chromium on the server', () => {
  let t: TestApp;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { workers: 0, chromiumPath: '/nonexistent/chromium' });
    account = await t.createAccount('no-browser');
  });
  afterAll(() => t?.close());

  it('refuses lab=1 on lab, storing nothing; lab=0 works as before', async () => {
    const url = 'http://127.0.0.1:9/';
    expect(expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, lab: 1 }), 'lab')).toEqual(['Lab audits are not available on this server.']);
    expect(body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total).toBe(0);
    const plain = await startCrawl(t, account, { url, lab: 0, lab_pages: 3 });
    expect(plain.lab).toBeNull();
  });
});
