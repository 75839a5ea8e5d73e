// `pagegrade crawl --output`: the crawl's report files (JSON, HTML, JUnit XML, SARIF) from one crawl of a
// loopback site, each checked for its shape, against its published schema and against the run's own
// --json; none holds a request header's value. The renderers also for a crawl that failed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCrawlHtml } from '../../src/cli/outputs/crawl-html.ts';
import { renderCrawlJunit } from '../../src/cli/outputs/crawl-junit.ts';
import { renderCrawlSarif } from '../../src/cli/outputs/crawl-sarif.ts';
import { siteChecks } from '../../src/crawl/site-checks/index.ts';
import type { Crawl, CrawlIssue, CrawlPage } from '../../src/services/crawl-view.ts';
import { html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';
import { junitSchemaErrors, sarifSchemaErrors } from './schemas.ts';

const SECRET = 's3cr3t-token-value';
const LEVELS: Record<string, string> = { high: 'error', medium: 'warning', low: 'note' };
const FILES = ['crawl.json', 'crawl.html', 'crawl.junit.xml', 'crawl.xml', 'crawl.sarif', 'crawl.sarif.json'];

/** A page of the site, with no link to another host (so nothing leaves the loopback). */
const page = (title: string, links: string[]) =>
  html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="A page of the roastery's site, about coffee and how we roast it."></head>
<body><h1>${title}</h1><p>${'Fresh coffee beans roasted every day. '.repeat(40)}</p>${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</body></html>`);

let site: Site;
let directory: string;
let run: Awaited<ReturnType<typeof runInProcess>>;
const read = (name: string) => readFile(join(directory, name), 'utf8');
const xmlElements = (xml: string, name: string) => DomUtils.findAll((element) => element.name === name, parseDocument(xml, { xmlMode: true }).children);

beforeAll(async () => {
  site = await startSite({
    '/': page('The roastery', ['/beans', '/gone']),
    '/beans': page('The roastery', ['/']),
  });
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-crawl-outputs-'));
  run = await runInProcess(
    ['crawl', site.url('/'), '--no-sitemap', '--no-external', '--header', `X-Token: ${SECRET}`, '--json', ...FILES.flatMap((name) => ['--output', join(directory, name)])],
    LOOPBACK,
  );
});

afterAll(async () => {
  await site?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('crawl --output: one crawl, every format', () => {
  it('writes the JSON --json prints: the crawl, its issues and every visited URL', async () => {
    expect(run.code, run.stderr).toBe(0);
    expect(await read('crawl.json')).toBe(run.stdout);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report)).toEqual(['crawl', 'issues', 'pages']);
    expect(report.crawl).toMatchObject({ url: site.url('/'), state: 'done', pages_crawled: 2 });
    expect(report.pages.map((row: CrawlPage) => [row.url, row.status_code])).toEqual([
      [site.url('/'), 200],
      [site.url('/beans'), 200],
      [site.url('/gone'), 404],
    ]);
    expect(report.issues.map((issue: CrawlIssue) => issue.id)).toEqual(expect.arrayContaining(['broken_links', 'duplicate_titles']));
  });

  it('keeps the settings in the crawl object, naming the header and never its value', async () => {
    const report = JSON.parse(run.stdout);
    expect(report.crawl).toMatchObject({ external: 0, header_names: ['X-Token'] });
    for (const name of FILES) expect(await read(name), name).not.toContain(SECRET);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it('writes a self-contained HTML report: start URL, score and verdict, site issues with their items, pages', async () => {
    const { crawl } = JSON.parse(run.stdout) as { crawl: Crawl };
    const text = await read('crawl.html');
    const document = parseDocument(text);
    const elements = DomUtils.findAll(() => true, document.children);
    // Nothing loaded from elsewhere: no script, stylesheet link, image, frame or source; no CSS url().
    expect(elements.filter((element) => ['script', 'link', 'img', 'iframe', 'source', 'object', 'embed'].includes(element.name))).toEqual([]);
    expect(elements.filter((element) => element.attribs.src !== undefined)).toEqual([]);
    expect(text).not.toMatch(/url\(/);
    expect(text).not.toMatch(/ href="\/(?!\/)/);
    const body = DomUtils.textContent(document);
    expect(body).toContain(`Site audit of ${site.url('/').replace('http://', '').replace(/\/$/, '')}`);
    expect(elements.some((element) => element.attribs['aria-label'] === `Score ${crawl.score} out of 100`)).toBe(true);
    expect(elements.some((element) => element.attribs.class === `verdict verdict--${crawl.result}`)).toBe(true);
    expect(elements.some((element) => element.attribs.id === 'issue-broken_links')).toBe(true);
    expect(elements.filter((element) => element.name === 'a').map((element) => element.attribs.href)).toContain(site.url('/gone'));
    expect(DomUtils.findAll((element) => element.name === 'tr', document.children)).toHaveLength(1 + 3);
  });

  it('writes JUnit XML: one suite, a test case per site check of the catalogue, a failure naming the URLs', async () => {
    const xml = await read('crawl.junit.xml');
    expect(await read('crawl.xml')).toBe(xml);
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xmlElements(xml, 'testsuite')).toHaveLength(1);
    const cases = xmlElements(xml, 'testcase');
    expect(cases.map((element) => element.attribs.name)).toEqual(siteChecks.map((check) => check.id));
    const failed = cases.filter((element) => DomUtils.findOne((child) => child.name === 'failure', element.children) !== null);
    const { issues } = JSON.parse(run.stdout) as { issues: CrawlIssue[] };
    expect(failed.map((element) => element.attribs.name).sort()).toEqual(issues.map((issue) => issue.id).sort());
    const broken = cases.find((element) => element.attribs.name === 'broken_links')!;
    expect(DomUtils.textContent(broken)).toContain(`- ${site.url('/gone')}: url: ${site.url('/gone')}; status_code: 404`);
    const duplicates = cases.find((element) => element.attribs.name === 'duplicate_titles')!;
    expect(DomUtils.textContent(duplicates)).toContain(site.url('/beans'));
  });

  it('writes SARIF 2.1.0: the tool, the site checks as rules, a result per finding at its URL', async () => {
    const text = await read('crawl.sarif');
    expect(await read('crawl.sarif.json')).toBe(text);
    const log = JSON.parse(text);
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const [sarifRun] = log.runs;
    expect(sarifRun.tool.driver).toMatchObject({ name: 'pagegrade', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(sarifRun.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual(siteChecks.map((check) => check.id));
    const { issues } = JSON.parse(run.stdout) as { issues: CrawlIssue[] };
    expect(sarifRun.results).toHaveLength(issues.reduce((sum, issue) => sum + issue.items.length, 0));
    for (const result of sarifRun.results) {
      const issue = issues.find((entry) => entry.id === result.ruleId)!;
      expect(result.level).toBe(LEVELS[issue.importance]);
      expect(result.message.text).not.toBe('');
    }
    const broken = sarifRun.results.find((result: { ruleId: string }) => result.ruleId === 'broken_links');
    expect(broken.locations[0].physicalLocation.artifactLocation.uri).toBe(site.url('/gone'));
    expect(broken.message.text).toContain('404');
    // A duplicate title has no url: it is at the first page it is on.
    const duplicate = sarifRun.results.find((result: { ruleId: string }) => result.ruleId === 'duplicate_titles');
    expect(duplicate.locations[0].physicalLocation.artifactLocation.uri).toBe(site.url('/'));
  });
});

describe('the crawl report files of a crawl that failed or checked no external link', () => {
  const crawl = {
    id: 1, url: 'https://example.com/', state: 'failed', score: null, result: null, issues: { high: 0, medium: 0, low: 0 },
    error: 'No HTML page could be crawled (the start page answered 404)', pages_crawled: 0, pages_found: 1, pages_failed: 0,
    limit_reached: false, external: 1, finished_at: '2026-12-03T10:00:00.000Z',
  } as Crawl;

  it('JUnit: one crawl test case in error; SARIF: an unsuccessful invocation with no result; HTML: says why', async () => {
    expect(DomUtils.textContent(parseDocument(renderCrawlHtml({ crawl, issues: [], pages: [] })))).toContain('The crawl failed: No HTML page could be crawled (the start page answered 404)');
    const xml = renderCrawlJunit({ crawl, issues: [], pages: [] });
    expect(await junitSchemaErrors(xml)).toEqual([]);
    const [error] = xmlElements(xml, 'error');
    expect(error.attribs.message).toBe('the crawl failed: No HTML page could be crawled (the start page answered 404)');
    const log = JSON.parse(renderCrawlSarif({ crawl, issues: [], pages: [] }));
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].invocations[0]).toMatchObject({ executionSuccessful: false, toolExecutionNotifications: [{ level: 'error' }] });
  });

  it('JUnit: broken_external_links is skipped when links to other hosts were not checked', async () => {
    expect(siteChecks.map((check) => check.id)).toContain('broken_external_links');
    const xml = renderCrawlJunit({ crawl: { ...crawl, state: 'done', score: 90, result: 'good', external: 0 }, issues: [], pages: [] });
    expect(await junitSchemaErrors(xml)).toEqual([]);
    const skipped = xmlElements(xml, 'testcase').filter((element) => DomUtils.findOne((child) => child.name === 'skipped', element.children) !== null);
    expect(skipped.map((element) => element.attribs.name)).toEqual(['broken_external_links']);
    expect(xmlElements(xml, 'testsuite')[0].attribs).toMatchObject({ tests: String(siteChecks.length), failures: '0', skipped: '1' });
  });
});
