// `pagegrade analyze --output/--format/--budget`, in-process through runCli against a loopback site: the
// report files a pipeline keeps (JSON, the HTML report page, JUnit XML, SARIF), each checked against
// its published schema and against the run's own --json, and budgets as a CI gate.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { chromiumInstalled, launchTestBrowser } from '../support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allChecks } from '../../src/checks/index.ts';
import { inlinedStylesheet } from '../../src/cli/outputs/html.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { PATIENT } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';
import { junitSchemaErrors, sarifSchemaErrors } from './schemas.ts';

/** Titles carrying what XML must escape or cannot carry: markup, `]]>`, quotes, control characters. */
const HOSTILE_TITLES = ['Coffee ]]> <b>beans</b> & "quotes" \'too\' \u0001\u001b[31m', 'Second coffee title'];
/** The good page made to fail four known checks more: two titles, no meta description, no h1, an image without alt. */
const BROKEN_PAGE = goodPage()
  .replace(/<title>[^<]*<\/title>/, HOSTILE_TITLES.map((title) => `<title>${title}</title>`).join(''))
  .replace(/<meta name="description"[^>]*>/, '')
  .replace('<h1>Mountain coffee</h1>', '')
  .replace('<img src="/coffee.webp" alt="A cup of coffee"', '<img src="/coffee.webp"');
/** What the good page fails on a plain-http loopback site. */
const GOOD_FAILED = ['text_compression', 'https_encryption', 'security_headers', 'sitemap', 'llms_txt'];
/** ... and the broken one, in the catalogue's order. */
const BROKEN_FAILED = ['title', 'meta_description', 'headings', 'image_keywords', 'text_compression', 'https_encryption', 'security_headers', 'sitemap', 'llms_txt'];
const LEVELS: Record<string, string> = { high: 'error', medium: 'warning', low: 'note' };
const SCREENSHOTS = join(import.meta.dirname, '../../test-output/screenshots');

interface SarifResult {
  ruleId: string;
  locations: { physicalLocation: { artifactLocation: { uri: string } }; logicalLocations: { fullyQualifiedName: string }[] }[];
  partialFingerprints: Record<string, string>;
  properties: { url: string };
}

interface JsonReport {
  url: string;
  score: number;
  results: Record<string, { passed: boolean | null; importance: string; category: string }>;
}

let site: Site;
let good: string;
let broken: string;
let directory: string;

const path = (name: string) => join(directory, name);
const failedIds = (report: JsonReport) => Object.keys(report.results).filter((id) => report.results[id].passed === false);
const xmlElements = (xml: string, name: string) =>
  DomUtils.findAll((element) => element.name === name, parseDocument(xml, { xmlMode: true }).children);
type XmlElement = ReturnType<typeof xmlElements>[number];
const childrenNamed = (element: XmlElement, name: string) =>
  element.children.filter((child): child is XmlElement => DomUtils.isTag(child) && child.name === name);

beforeAll(async () => {
  site = await startSite({ '/good': html(goodPage()), '/broken': html(BROKEN_PAGE) });
  [good, broken] = [site.url('/good'), site.url('/broken')];
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-outputs-'));
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

describe('analyze --output: one run, four files', () => {
  let reports: JsonReport[];

  beforeAll(async () => {
    const run = await runInProcess(
      ['analyze', good, broken, '--json', '--output', path('all.json'), '--output', path('all.html'), '--output', path('all.junit.xml'), '--output', path('all.sarif')],
      PATIENT,
    );
    expect(run.code, run.stderr).toBe(0);
    reports = JSON.parse(run.stdout);
  });

  it('the pages fail exactly the checks they were built to fail', () => {
    expect(reports.map((report) => report.url)).toEqual([good, broken]);
    expect(failedIds(reports[0])).toEqual(GOOD_FAILED);
    expect(failedIds(reports[1])).toEqual(BROKEN_FAILED);
  });

  it('json: exactly what --json prints, every report', async () => {
    expect(JSON.parse(await readFile(path('all.json'), 'utf8'))).toEqual(reports);
  });

  it('junit: valid against the JUnit schema; a suite per URL, a case per applicable check, failures with their items', async () => {
    const xml = await readFile(path('all.junit.xml'), 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual([]);
    const suites = xmlElements(xml, 'testsuite');
    expect(suites.map((suite) => suite.attribs.name)).toEqual([good, broken]);
    suites.forEach((suite, index) => {
      const report = reports[index];
      const applicable = Object.keys(report.results).filter((id) => report.results[id].passed !== null);
      // Some checks do not apply (javascript_dependency without --render, at least): they are no test case.
      expect(applicable.length).toBeLessThan(Object.keys(report.results).length);
      const cases = childrenNamed(suite, 'testcase');
      expect(cases.map((testCase) => testCase.attribs.name.split(':')[0])).toEqual(applicable);
      expect(cases.every((testCase) => testCase.attribs.classname === report.url)).toBe(true);
      const failing = cases.filter((testCase) => childrenNamed(testCase, 'failure').length > 0);
      expect(failing.map((testCase) => testCase.attribs.name.split(':')[0])).toEqual(failedIds(report));
      expect(suite.attribs).toMatchObject({ tests: String(applicable.length), failures: String(failing.length), errors: '0' });
    });
    const [root] = xmlElements(xml, 'testsuites');
    expect(root.attribs).toMatchObject({ failures: String(GOOD_FAILED.length + BROKEN_FAILED.length), errors: '0' });

    // The title's failure: its title and importance, every offending title (what XML 1.0 cannot carry
    // dropped, the rest intact through the escaping), and the fix.
    const titleCase = childrenNamed(suites[1], 'testcase').find((testCase) => testCase.attribs.name.startsWith('title:'));
    const [failure] = childrenNamed(titleCase!, 'failure');
    const title = allChecks.find((check) => check.id === 'title')!;
    expect(titleCase!.attribs.name).toBe(`title: ${title.title}`);
    expect(failure.attribs).toEqual({ message: title.failureTitle, type: 'high' });
    const body = DomUtils.textContent(failure);
    expect(body).toContain(`multiple:\n  - Coffee ]]> <b>beans</b> & "quotes" 'too' [31m\n  - Second coffee title\n`);
    expect(body.endsWith(`Fix: ${title.howToFix}`)).toBe(true);
  });

  it('sarif: valid SARIF 2.1.0; pagegrade at its version, the catalogue as rules, one result per failed check per URL, located at the URL', async () => {
    const log = JSON.parse(await readFile(path('all.sarif'), 'utf8'));
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    const { version } = JSON.parse(await readFile(join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect(run.tool.driver).toMatchObject({ name: 'pagegrade', version });
    expect((await runInProcess(['--version'])).stdout).toBe(`${version}\n`);
    expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual(allChecks.map((check) => check.id));
    const title = allChecks.find((check) => check.id === 'title')!;
    expect(run.tool.driver.rules.find((rule: { id: string }) => rule.id === 'title')).toMatchObject({
      name: 'Title',
      shortDescription: { text: title.title },
      fullDescription: { text: title.description },
      help: { text: title.howToFix },
      defaultConfiguration: { level: 'error' },
    });
    expect(run.invocations).toEqual([{ executionSuccessful: true, toolExecutionNotifications: [] }]);
    const located = run.results.map((result: SarifResult) => [result.locations[0].logicalLocations[0].fullyQualifiedName, result.ruleId]);
    expect(located).toEqual([...GOOD_FAILED.map((id) => [good, id]), ...BROKEN_FAILED.map((id) => [broken, id])]);
    // What GitHub code scanning takes: one location, physical, a path relative to the repository
    // (no scheme, the port's ":" escaped) at line 1; the URL beside it; a fingerprint per check and URL.
    for (const result of run.results as SarifResult[]) {
      const url = new URL(result.properties.url);
      expect(result.locations).toEqual([
        {
          physicalLocation: { artifactLocation: { uri: `${url.hostname}%3A${url.port}${url.pathname}` }, region: { startLine: 1 } },
          logicalLocations: [{ fullyQualifiedName: url.href, kind: 'resource' }],
        },
      ]);
      expect(result.partialFingerprints).toEqual({ 'pagegradeCheck/v1': `${url.href} ${result.ruleId}` });
    }
    const fingerprints = run.results.map((result: SarifResult) => result.partialFingerprints['pagegradeCheck/v1']);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
    for (const result of run.results) {
      expect(result.level).toBe(LEVELS[reports[0].results[result.ruleId].importance]);
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
    }
    const titleResult = run.results.find((result: { ruleId: string }) => result.ruleId === 'title');
    expect(titleResult.message.text).toBe(`${title.failureTitle}: multiple: ${HOSTILE_TITLES.join('; ')}.`);
  });

  it('html: the report page in one self-contained file, each URL\'s report in turn, ids unique', async () => {
    const page = await readFile(path('all.html'), 'utf8');
    // The stylesheet inlined without its comments (they speak of the server and its API).
    const css = await readFile(join(import.meta.dirname, '../../src/web/assets/app.css'), 'utf8');
    expect(css).toContain('/*');
    expect(page).toContain(`<style>\n${inlinedStylesheet('app.css')}</style>`);
    expect(page).not.toContain('/*');
    expect(page).not.toMatch(/<link rel="stylesheet"|<script|\/assets\/| href="\/(?!\/)/);
    const document = parseDocument(page);
    const elements = DomUtils.findAll(() => true, document.children);
    // Nothing to fetch: no src at all, and the only non-anchor href is the icon's data: URL.
    expect(elements.filter((element) => element.attribs.src !== undefined)).toEqual([]);
    const hrefs = elements.flatMap((element) => (element.attribs.href === undefined ? [] : [element.attribs.href]));
    expect(hrefs.filter((href) => !href.startsWith('#') && !href.startsWith('data:image/svg+xml,'))).toEqual([good, broken]);
    const articles = elements.filter((element) => element.name === 'article');
    // Each report's headline is its page's title (the first one, as the title check read it), its URL under it.
    const headings = articles.map((article) => DomUtils.textContent(DomUtils.findOne((element) => element.name === 'h1', article.children)!));
    expect(headings).toEqual(reports.map((report) => (report.results.title as unknown as { value: { title: string } }).value.title));
    const urls = articles.map((article) => DomUtils.textContent(DomUtils.findOne((element) => element.attribs.class === 'report-url', article.children)!));
    expect(urls).toEqual([good, broken]);
    const ids = elements.flatMap((element) => (element.attribs.id === undefined ? [] : [element.attribs.id]));
    expect(new Set(ids).size).toBe(ids.length);
    // Every in-page link goes somewhere, inside its own report.
    for (const href of hrefs.filter((href) => href.startsWith('#'))) expect(ids).toContain(href.slice(1));
    expect(ids).toContain('report-2-check-title');
    expect(DomUtils.textContent(DomUtils.findOne((element) => element.attribs.id === 'report-2-check-title', document.children)!)).toContain(
      'Coffee ]]> <b>beans</b> & "quotes"',
    );
  });
  // Opened from disk in a real browser: styled by the inlined stylesheet, and nothing is requested.
  it.runIf(chromiumInstalled)('html: in Chromium, opened from disk, the page is styled and fetches nothing', async () => {
    const browser = await launchTestBrowser();
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      const file = `file://${path('all.html')}`;
      await page.goto(file, { waitUntil: 'load' });
      expect(requested.filter((url) => url !== file && !url.startsWith('data:'))).toEqual([]);
      // The stylesheet's rules apply: the score ring's track has its stroke colour, the page its layout width.
      const styled = await page.evaluate(() => ({
        track: getComputedStyle(document.querySelector('.score-ring-track')!).stroke,
        containerMaxWidth: getComputedStyle(document.querySelector('main.container')!).maxWidth,
      }));
      expect(styled).toEqual({ track: 'rgb(227, 231, 235)', containerMaxWidth: '1024px' });
      expect(await page.locator('article.report').count()).toBe(2);
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'cli-html-output.png'), fullPage: false });
    } finally {
      await browser.close();
    }
  });
});

describe('analyze --output: formats', () => {
  it('--format names the format of the --output right after it; otherwise the name decides', async () => {
    const names = ['sarif.txt', 'b.sarif.json', 'c.xml', 'd.report', 'e.SARIF', 'f.json'];
    const run = await runInProcess(
      ['analyze', good, '--format', 'sarif', '--output', path(names[0]), '--output', path(names[1]), '--output', path(names[2]),
        '--format', 'json', '--output', path(names[3]), '--output', path(names[4]), '--format', 'html', '--output', path(names[5])],
      PATIENT,
    );
    expect(run.code, run.stderr).toBe(0);
    const [sarifTxt, sarifJson, junit, json, sarifUpper, htmlJson] = await Promise.all(names.map((name) => readFile(path(name), 'utf8')));
    for (const sarif of [sarifTxt, sarifJson, sarifUpper]) expect(JSON.parse(sarif).version).toBe('2.1.0');
    expect(await junitSchemaErrors(junit)).toEqual([]);
    expect(JSON.parse(json)).toMatchObject({ url: good, results: expect.any(Object) });
    expect(htmlJson).toMatch(/^<!doctype html>/);
    // One URL: an object, as --json prints it.
    expect(Array.isArray(JSON.parse(json))).toBe(false);
  });

  it('a URL that could not be analysed: {url, error} in JSON, a JUnit error, a SARIF notification, the page says why; exit 3', async () => {
    const bad = 'ftp://example.com/file';
    const run = await runInProcess(
      ['analyze', broken, bad, '--output', path('mixed.json'), '--output', path('mixed.junit.xml'), '--output', path('mixed.sarif'), '--output', path('mixed.html')],
      PATIENT,
    );
    expect(run.code).toBe(3);
    const json = JSON.parse(await readFile(path('mixed.json'), 'utf8'));
    expect(json[1]).toEqual({ url: bad, error: expect.stringContaining('http or https') });

    const xml = await readFile(path('mixed.junit.xml'), 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual([]);
    const suite = xmlElements(xml, 'testsuite')[1];
    expect(suite.attribs).toMatchObject({ name: bad, tests: '1', failures: '0', errors: '1' });
    expect(xmlElements(xml, 'error').map((error) => error.attribs.message)).toEqual([expect.stringContaining('could not be analysed: ')]);

    const log = JSON.parse(await readFile(path('mixed.sarif'), 'utf8'));
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].invocations[0]).toMatchObject({
      executionSuccessful: false,
      toolExecutionNotifications: [{ level: 'error', message: { text: expect.stringContaining(`${bad} could not be analysed`) } }],
    });
    expect(log.runs[0].results.map((result: { ruleId: string }) => result.ruleId)).toEqual(BROKEN_FAILED);

    const page = await readFile(path('mixed.html'), 'utf8');
    expect(page).toContain('No analysis has succeeded yet.');
    expect(page).toContain('The latest analysis failed: The url must use http or https');
  });
});

describe.concurrent('analyze --output: usage errors exit 2 before anything is analysed', () => {
  it.each([
    [['--output', 'report.txt'], '--output report.txt: cannot tell the format from the name'],
    [['--output', '/nonexistent-directory/report.json'], 'Cannot write --output /nonexistent-directory/report.json: /nonexistent-directory is not a directory'],
  ])('analyze https://example.com/ %j', async (args, message) => {
    const run = await runInProcess(['analyze', 'https://example.com/', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: pagegrade analyze');
    expect(run.stdout).toBe('');
  });
});
