import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../checks/thresholds.ts';
import type { UndecodedPage } from '../fetch/types.ts';
import { decodePage } from '../fetch/decode-page.ts';
import { corpusOriginFacts, corpusUndecodedPage, loadCorpus } from '../../test/support/corpus.ts';
import { analysisPool, createPool, type AnalysisTask } from './analysis-pool.ts';
import type { Analysis } from './types.ts';
import { analyzePage } from './analyze-page.ts';
import { createFetchedPageAnalyzer } from './analyze-url.ts';
import { parseSitemapBytes } from '../fetch/sitemap-xml.ts';
import { unpackResults } from './packed-results.ts';

const corpus = loadCorpus().slice(0, 12);
const GENERATED_AT = new Date('2026-11-21T10:00:00.000Z');

describe('analysisPool', () => {
  it('analyses on a worker exactly as analyzePage does in-process, many pages at once', async () => {
    const pool = analysisPool(2);
    const analyses = await Promise.all(
      corpus.map((page) =>
        pool.analyze({ page: corpusUndecodedPage(page), origin: corpusOriginFacts(page), thresholds: DEFAULT_THRESHOLDS, generatedAt: GENERATED_AT }),
      ),
    );
    analyses.forEach((analysis, index) => {
      const page = corpus[index];
      const inProcess = analyzePage(decodePage(corpusUndecodedPage(page)), corpusOriginFacts(page), DEFAULT_THRESHOLDS, undefined, GENERATED_AT);
      // The pool packs the results for storage too (packed-results.ts): the same results, packed.
      const { packedResults, ...analysed } = analysis;
      expect(analysed).toEqual(inProcess);
      expect(unpackResults(packedResults!)).toEqual(inProcess.results);
    });
  });

  it('decodes the bytes on the thread with the page\'s charset', async () => {
    const pool = analysisPool(1);
    const page = corpus[0];
    // "Café crème" in windows-1252: é and è are single bytes that are not valid UTF-8.
    const body = Buffer.from([...Buffer.from('<html><head><title>Caf'), 0xe9, ...Buffer.from(' cr'), 0xe8, ...Buffer.from('me</title></head><body><p>Hi</p></body></html>')]);
    const undecoded: UndecodedPage = { ...corpusUndecodedPage(page), body, charset: 'windows-1252', bodyBytes: body.length };
    const analysis = await pool.analyze({ page: undecoded, origin: corpusOriginFacts(page), thresholds: DEFAULT_THRESHOLDS, generatedAt: GENERATED_AT });
    expect(JSON.stringify(analysis.results)).toContain('Café crème');
    expect({ ...analysis, packedResults: undefined }).toEqual(analyzePage(decodePage(undecoded), corpusOriginFacts(page), DEFAULT_THRESHOLDS, undefined, GENERATED_AT));
  });

  it('rejects with the error an analysis threw, and keeps working', async () => {
    const pool = analysisPool(1);
    const page = corpus[0];
    const broken = { ...corpusUndecodedPage(page), body: undefined } as unknown as UndecodedPage;
    await expect(
      pool.analyze({ page: broken, origin: corpusOriginFacts(page), thresholds: DEFAULT_THRESHOLDS, generatedAt: GENERATED_AT }),
    ).rejects.toMatchObject({ name: 'TypeError', message: expect.any(String) });
    const analysis = await pool.analyze({
      page: corpusUndecodedPage(page),
      origin: corpusOriginFacts(page),
      thresholds: DEFAULT_THRESHOLDS,
      generatedAt: GENERATED_AT,
    });
    expect(analysis.generatedAt).toEqual(GENERATED_AT);
  });

  it('does not keep a process alive once its analyses are done', async () => {
    const poolUrl = pathToFileURL(resolve(import.meta.dirname, 'analysis-pool.ts')).href;
    const script = `import { analysisPool } from ${JSON.stringify(poolUrl)}; analysisPool(2); console.log('done');`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 20_000,
    });
    expect(stdout.trim()).toBe('done');
  });
});

describe('the pool\'s parsing tasks', () => {
  const ROBOTS = 'User-agent: *\nDisallow: /private\nCrawl-delay: 2\nSitemap: https://example.com/s.xml\n\nUser-agent: otherbot\nDisallow: /\n';

  it('answers robots.txt questions, each thread parsing a text once, for any token', async () => {
    const pool = analysisPool(2);
    const urls = ['https://example.com/', 'https://example.com/private/x'];
    const asks = await Promise.all([1, 2, 3, 4].map(() => pool.robots({ text: ROBOTS, token: 'pagegrade', urls })));
    for (const answer of asks) expect(answer).toEqual({ allowed: [true, false], crawlDelaySeconds: 2 });
    expect(await pool.robots({ text: ROBOTS, token: 'otherbot', urls })).toEqual({ allowed: [false, false], crawlDelaySeconds: null });
    expect(await pool.robotsSitemaps(ROBOTS)).toEqual(['https://example.com/s.xml']);
  });

  it('parses a sitemap file\'s bytes as the calling thread would', async () => {
    const bytes = Buffer.from('<urlset><url><loc>https://example.com/caf\xe9</loc></url><url><loc>https://example.com/b</loc></url></urlset>', 'latin1');
    const parsed = await analysisPool(2).parseSitemap(bytes, 'windows-1252');
    expect(parsed).toEqual(parseSitemapBytes(bytes, 'windows-1252'));
    expect(parsed.pages).toEqual(['https://example.com/café', 'https://example.com/b']);
  });

  it('filters a crawl\'s links by the robots.txt of the origin facts on the thread as here', async () => {
    const page = corpus[0];
    const html = '<a href="/private/a">a</a><a href="/open">b</a><a href="https://other.example/">c</a>';
    const undecoded: UndecodedPage = { ...corpusUndecodedPage(page), body: Buffer.from(html), charset: 'utf-8', bodyBytes: html.length };
    const base = corpusOriginFacts(page);
    const origin = { ...base, robotsTxt: { ...base.robotsTxt, statusCode: 200, body: ROBOTS } };
    const host = new URL(undecoded.finalUrl).host;
    const crawl = { host, robotsTxt: ROBOTS, robotsToken: 'pagegrade', maxLinks: 1000 };
    const options = { fetch: {} as never, thresholds: DEFAULT_THRESHOLDS };
    const onPool = await createFetchedPageAnalyzer({ ...options, pool: analysisPool(2) })(undecoded, origin, { crawl });
    const here = await createFetchedPageAnalyzer(options)(undecoded, origin, { crawl });
    expect(onPool.crawlFacts).toEqual(here.crawlFacts);
    expect(onPool.crawlFacts).toMatchObject({ links: [new URL('/open', undecoded.finalUrl).href], external: ['https://other.example/'] });
    // Another text than the origin's travels with the task.
    const other = await createFetchedPageAnalyzer({ ...options, pool: analysisPool(2) })(undecoded, origin, { crawl: { ...crawl, robotsTxt: 'User-agent: *\nDisallow: /open\n' } });
    expect(other.crawlFacts?.links).toEqual([new URL('/private/a', undecoded.finalUrl).href]);
  });
});

describe('analysis pool threads', () => {
  const STAND_IN = new URL('../../test/support/stand-in-analysis-worker.mjs', import.meta.url);
  const task = (url: string, html = '<p>') =>
    ({ page: { url, html }, origin: {}, thresholds: DEFAULT_THRESHOLDS, generatedAt: GENERATED_AT }) as unknown as AnalysisTask;
  const urlOf = (analysis: Analysis) => (analysis as unknown as { url: string }).url;

  it('answers every task, each with its own result, with more tasks than threads can hold', async () => {
    const pool = createPool(2, STAND_IN);
    const urls = Array.from({ length: 9 }, (_, index) => `https://example.com/${index}`);
    const analyses = await Promise.all(urls.map((url) => pool.analyze(task(url))));
    expect(analyses.map(urlOf)).toEqual(urls);
  });

  it('fails only the task a thread died on; the task waiting behind it runs on the new thread', async () => {
    const pool = createPool(1, STAND_IN);
    const crashing = pool.analyze(task('https://example.com/crash', 'crash'));
    // Posted at once behind the crashing one: it waits in the same thread's port.
    const waiting = pool.analyze(task('https://example.com/next'));
    const later = pool.analyze(task('https://example.com/later'));
    await expect(crashing).rejects.toThrow('analysis worker exited with code 3');
    expect(urlOf(await waiting)).toBe('https://example.com/next');
    expect(urlOf(await later)).toBe('https://example.com/later');
  });
});
