// Lab benchmark, side by side with Lighthouse 12 (docs/performance.md, "Lab audits"): the lab fixture
// pages (lab-pages.ts) and corpus pages served on 127.0.0.1, each audited under the mobile profile by
// pagegrade's renderer (`renderer.lab`, as a report with lab=1 makes it: its own browser pool, one
// audit at a time) and by Lighthouse's performance and accessibility categories with the same
// throttling (`throttlingMethod: 'devtools'`, Lighthouse's default mobile settings) in the same
// Chromium build, one after the other, one page at a time. Compared: the time per page, LCP and CLS,
// and for every (page, rule) pair both tools judged, whether the axe rule failed.
import { loadCorpus } from '../test/support/corpus.ts';
import type { FetchOptions } from '../src/fetch/options.ts';
import type { LabMeasurement } from '../src/lab/lab-types.ts';
import { chromiumAvailable, DEFAULT_CHROMIUM_PATH, MACHINE_CHROMIUM_ARGS } from '../src/render/chromium.ts';
import { createRenderer } from '../src/render/renderer.ts';
import { startCorpusSite } from './corpus-site.ts';
import { startLabSite } from './lab-pages.ts';
import type { BenchMode } from './mode.ts';
import { seededRandom, shuffled } from './random.ts';
import { percentile, round } from './stats.ts';

/** Fixture pages and corpus pages measured; full: every fixture and 30 corpus pages (about 15 minutes). */
const SIZES: Record<BenchMode, { fixtures: number; corpus: number }> = {
  smoke: { fixtures: 2, corpus: 1 },
  quick: { fixtures: 6, corpus: 5 },
  full: { fixtures: 6, corpus: 30 },
};
const LAB_TIMEOUT_MS = 30_000;
const FETCH: FetchOptions = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, userAgent: 'pagegrade-bench', allowPrivate: true };

export interface LabPageFigures {
  url: string;
  pagegrade_ms: number;
  lighthouse_ms: number;
  pagegrade: { lcp_ms: number | null; cls: number | null; failing: string[] } | { failed: string };
  lighthouse: { lcp_ms: number | null; cls: number | null; failing: string[] } | { failed: string };
  /** the axe rules both judged on this page, and those on which they disagree (failing in one only) */
  rules_compared: number;
  disagreements: string[];
}

export interface LabBenchResult {
  pages: number;
  lighthouse_version: string;
  pagegrade_ms_median: number;
  lighthouse_ms_median: number;
  /** pagegrade's median time a page / Lighthouse's; target at most 1/3 */
  time_ratio: number;
  /** median over the pages both measured of |LCP pagegrade - LCP Lighthouse| / LCP Lighthouse; target at most 0.2 */
  lcp_relative_diff_median: number | null;
  /** median of |CLS pagegrade - CLS Lighthouse|; target at most 0.05 */
  cls_diff_median: number | null;
  /** (page, rule) pairs where both say the same (failing or not), of those both judged; target at least 0.95 */
  rule_agreement: number | null;
  rule_pairs: number;
  per_page: LabPageFigures[];
}

export type LabBenchOutcome = { result: LabBenchResult } | { skipped: string };

/** Lighthouse's audits that are axe rules, failed: binary audits scored 0 (the others did not apply or need a person). */
function lighthouseFailing(audits: Record<string, { score: number | null; scoreDisplayMode: string }>, ids: readonly string[]): string[] {
  return ids.filter((id) => audits[id]?.scoreDisplayMode === 'binary' && audits[id].score === 0);
}

/** The axe rules Lighthouse judged on the page (binary: passed or failed). */
function lighthouseJudged(audits: Record<string, { scoreDisplayMode: string }>, ids: readonly string[]): Set<string> {
  return new Set(ids.filter((id) => audits[id]?.scoreDisplayMode === 'binary'));
}

function pagegradeFigures(measurement: LabMeasurement) {
  const rules = measurement.accessibility.ok ? measurement.accessibility.rules : {};
  const failing = Object.entries(rules).filter(([, rule]) => rule.outcome === 'violation').map(([id]) => id);
  const judged = new Set(Object.entries(rules).filter(([, rule]) => rule.outcome === 'violation' || rule.outcome === 'passed').map(([id]) => id));
  return { lcp_ms: measurement.metrics.lcp_ms, cls: measurement.metrics.cls, failing, judged };
}

const median = (values: number[]): number | null => (values.length === 0 ? null : percentile(values, 50));

export async function runLabBenchmark(mode: BenchMode): Promise<LabBenchOutcome> {
  if (!chromiumAvailable(DEFAULT_CHROMIUM_PATH)) return { skipped: `no Chromium at ${DEFAULT_CHROMIUM_PATH}: lab audits not measured` };
  const { default: lighthouse, defaultConfig } = await import('lighthouse');
  const { launch } = await import('chrome-launcher');
  const { createRequire } = await import('node:module');
  const lighthouseVersion = (createRequire(import.meta.url)('lighthouse/package.json') as { version: string }).version;
  const accessibilityIds = (defaultConfig.categories?.accessibility.auditRefs ?? []).map((ref) => ref.id);

  const size = SIZES[mode];
  const site = await startLabSite();
  const corpusPages = shuffled(seededRandom(45), loadCorpus()).slice(0, size.corpus);
  const corpus = await startCorpusSite(corpusPages);
  const urls = [...site.pageUrls.slice(0, size.fixtures), ...corpus.pageUrls];
  const renderer = createRenderer({ chromiumPath: DEFAULT_CHROMIUM_PATH, concurrency: 1, labConcurrency: 1, labTimeoutMs: LAB_TIMEOUT_MS, fetch: FETCH })!;
  const chrome = await launch({ chromePath: DEFAULT_CHROMIUM_PATH, chromeFlags: ['--headless=new', ...MACHINE_CHROMIUM_ARGS] });
  const runLighthouse = async (url: string) => {
    const runner = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], throttlingMethod: 'devtools' });
    if (runner === undefined) throw new Error('Lighthouse returned no result');
    return runner.lhr;
  };
  try {
    // Each tool's first page is not measured: the browser's start and the code's first load are not a page's cost.
    await renderer.lab(site.pageUrls[0], 'mobile');
    await runLighthouse(site.pageUrls[0]);

    const perPage: LabPageFigures[] = [];
    for (const url of urls) {
      let started = performance.now();
      const audit = await renderer.lab(url, 'mobile');
      const pagegradeMs = performance.now() - started;
      started = performance.now();
      const lhr = await runLighthouse(url).catch((error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }));
      const lighthouseMs = performance.now() - started;

      const ours = audit.ok ? pagegradeFigures(audit.measurement) : null;
      const theirs = 'failed' in lhr || lhr.runtimeError ? null : lhr;
      let disagreements: string[] = [];
      let compared = 0;
      if (ours !== null && theirs !== null) {
        const judged = lighthouseJudged(theirs.audits, accessibilityIds);
        const theirFailing = new Set(lighthouseFailing(theirs.audits, accessibilityIds));
        const both = [...judged].filter((id) => ours.judged.has(id) || ours.failing.includes(id));
        compared = both.length;
        disagreements = both.filter((id) => theirFailing.has(id) !== ours.failing.includes(id));
      }
      perPage.push({
        url,
        pagegrade_ms: Math.round(pagegradeMs),
        lighthouse_ms: Math.round(lighthouseMs),
        pagegrade: ours === null ? { failed: audit.ok ? 'no measurement' : audit.reason } : { lcp_ms: ours.lcp_ms, cls: ours.cls, failing: ours.failing },
        lighthouse:
          theirs === null
            ? { failed: 'failed' in lhr ? lhr.failed : (lhr.runtimeError?.message ?? 'runtime error') }
            : {
                lcp_ms: theirs.audits['largest-contentful-paint']?.numericValue ?? null,
                cls: theirs.audits['cumulative-layout-shift']?.numericValue ?? null,
                failing: lighthouseFailing(theirs.audits, accessibilityIds),
              },
        rules_compared: compared,
        disagreements,
      });
      process.stdout.write(`lab: ${url} pagegrade ${Math.round(pagegradeMs)} ms, Lighthouse ${Math.round(lighthouseMs)} ms\n`);
    }
    return { result: summarise(perPage, lighthouseVersion) };
  } finally {
    await renderer.close();
    chrome.kill();
    await Promise.all([site.close(), corpus.close()]);
  }
}

function summarise(perPage: LabPageFigures[], lighthouseVersion: string): LabBenchResult {
  const both = perPage.flatMap((page) => ('failed' in page.pagegrade || 'failed' in page.lighthouse ? [] : [{ ours: page.pagegrade, theirs: page.lighthouse }]));
  const lcp = both.flatMap(({ ours, theirs }) => (ours.lcp_ms !== null && theirs.lcp_ms !== null && theirs.lcp_ms > 0 ? [Math.abs(ours.lcp_ms - theirs.lcp_ms) / theirs.lcp_ms] : []));
  const cls = both.flatMap(({ ours, theirs }) => (ours.cls !== null && theirs.cls !== null ? [Math.abs(ours.cls - theirs.cls)] : []));
  const pairs = perPage.reduce((sum, page) => sum + page.rules_compared, 0);
  const disagreements = perPage.reduce((sum, page) => sum + page.disagreements.length, 0);
  const ours = median(perPage.map((page) => page.pagegrade_ms)) ?? 0;
  const theirs = median(perPage.map((page) => page.lighthouse_ms)) ?? 0;
  const lcpMedian = median(lcp);
  const clsMedian = median(cls);
  return {
    pages: perPage.length,
    lighthouse_version: lighthouseVersion,
    pagegrade_ms_median: ours,
    lighthouse_ms_median: theirs,
    time_ratio: theirs === 0 ? 0 : round(ours / theirs, 3),
    lcp_relative_diff_median: lcpMedian === null ? null : round(lcpMedian, 3),
    cls_diff_median: clsMedian === null ? null : round(clsMedian, 4),
    rule_agreement: pairs === 0 ? null : round((pairs - disagreements) / pairs, 4),
    rule_pairs: pairs,
    per_page: perPage,
  };
}
