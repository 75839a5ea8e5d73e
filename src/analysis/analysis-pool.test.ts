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
      expect(analysis).toEqual(inProcess);
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
    expect(analysis).toEqual(analyzePage(decodePage(undecoded), corpusOriginFacts(page), DEFAULT_THRESHOLDS, undefined, GENERATED_AT));
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
