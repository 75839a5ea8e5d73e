import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../checks/thresholds.ts';
import type { FetchedPage } from '../fetch/types.ts';
import { corpusFetchedPage, corpusOriginFacts, loadCorpus } from '../../test/support/corpus.ts';
import { analysisPool } from './analysis-pool.ts';
import { analyzePage } from './analyze-page.ts';

const corpus = loadCorpus().slice(0, 12);
const GENERATED_AT = new Date('2026-11-21T10:00:00.000Z');

describe('analysisPool', () => {
  it('analyses on a worker exactly as analyzePage does in-process, many pages at once', async () => {
    const pool = analysisPool(2);
    const analyses = await Promise.all(
      corpus.map((page) =>
        pool.analyze({ page: corpusFetchedPage(page), origin: corpusOriginFacts(page), thresholds: DEFAULT_THRESHOLDS, generatedAt: GENERATED_AT }),
      ),
    );
    analyses.forEach((analysis, index) => {
      const page = corpus[index];
      expect(analysis).toEqual(analyzePage(corpusFetchedPage(page), corpusOriginFacts(page), DEFAULT_THRESHOLDS, undefined, GENERATED_AT));
    });
  });

  it('rejects with the error an analysis threw, and keeps working', async () => {
    const pool = analysisPool(1);
    const page = corpus[0];
    const broken = { ...corpusFetchedPage(page), html: undefined } as unknown as FetchedPage;
    await expect(
      pool.analyze({ page: broken, origin: corpusOriginFacts(page), thresholds: DEFAULT_THRESHOLDS, generatedAt: GENERATED_AT }),
    ).rejects.toMatchObject({ name: 'TypeError', message: expect.any(String) });
    const analysis = await pool.analyze({
      page: corpusFetchedPage(page),
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
