// The crawl-scale benchmark's targets (set for a million pages; judged at any size, and said so), its
// section of the output, and its JSON: bench/results/crawl-scale-<engine>.json, one file per engine so
// a SQLite run does not replace the last PostgreSQL one (nor latest.json, the other benchmarks').
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlScaleResult } from './crawl-scale.ts';
import { round } from './stats.ts';

const TARGET_PAGES = 1_000_000;

export interface ScaleTarget {
  name: string;
  value: number | string | null;
  target: string;
  met: boolean;
}

const GB_MB = 1024;

export function crawlScaleTargets(result: CrawlScaleResult): ScaleTarget[] {
  const worst = <K extends 'rss_peak_mb' | 'rss_growth_10_to_100'>(field: K) =>
    result.processes.reduce((max, each) => Math.max(max, each[field] ?? Infinity), 0);
  return [
    { name: 'complete (done, pages_crawled = N, every page stored once)', value: `${result.crawl.state}, ${result.crawl.pages_crawled}, ${result.stored_once.ok ? 'once' : result.stored_once.problems.join('; ')}`, target: `done, ${result.pages}, once`, met: result.complete && result.stored_once.ok },
    { name: 'ratio_vs_floor', value: result.ratio_vs_floor, target: '>= 0.3', met: result.ratio_vs_floor >= 0.3 },
    { name: 'rss_peak_mb (worst process)', value: worst('rss_peak_mb'), target: `<= ${GB_MB}`, met: worst('rss_peak_mb') <= GB_MB },
    { name: 'rss_growth_10_to_100 (worst process)', value: worst('rss_growth_10_to_100'), target: '<= 0.2', met: worst('rss_growth_10_to_100') <= 0.2 },
    { name: 'finish_share (finish s / crawl s)', value: result.finish_share, target: '<= 0.05', met: result.finish_share <= 0.05 },
    { name: 'database_bytes_per_page', value: result.database_bytes_per_page, target: '<= 8192', met: result.database_bytes_per_page <= 8192 },
    { name: 'health max_ms (and answers not 200)', value: `${result.health.max_ms} (${result.health.failed})`, target: '< 1000 (0)', met: result.health.max_ms < 1000 && result.health.failed === 0 },
  ];
}

function table(header: string[], rows: (string | number | null)[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

export function crawlScaleSection(result: CrawlScaleResult, targets: ScaleTarget[]): string {
  const crawl = result.crawl;
  const counts = (crawl.issues ?? {}) as Record<string, number>;
  const issues = ['high', 'medium', 'low'].map((importance) => counts[importance] ?? '?').join('/');
  return [
    `### Crawl scale (${result.engine}): one POST /api/v1/crawls of a generated site of ${result.pages} pages (${result.page_kb} KB a page), ` +
      `max_pages ${result.pages}, ${result.concurrency} pages at once, jobs run by ${result.workers}` +
      (result.engine === 'sqlite' ? `, PAGEGRADE_SQLITE_CACHE_MB ${result.sqlite_cache_mb}` : ''),
    '',
    table(
      ['pages crawled / found / failed', 'seconds', 'pages/s', 'crawl phase s', 'finish s (share)', 'floor pages/s (before, after)', 'ratio vs floor', 'database bytes/page', 'health p50 / p99 / max ms (pages, finish)', 'issues high/medium/low', 'load start → end'],
      [[
        `${crawl.pages_crawled} / ${crawl.pages_found} / ${crawl.pages_failed}`,
        result.seconds,
        result.pages_per_s,
        result.crawl_phase_s,
        `${result.finish_s} (${round(result.finish_share * 100, 2)}%)`,
        `${result.floor_pages_per_s} (${result.floor.pages_per_s}, ${result.floor_after.pages_per_s})`,
        result.ratio_vs_floor,
        result.database_bytes_per_page,
        `${result.health.p50_ms} / ${result.health.p99_ms} / ${result.health.max_ms} (${result.health.max_during_pages_ms}, ${result.health.max_during_finish_ms})`,
        issues,
        `${result.load_average.start} → ${result.load_average.end}`,
      ]],
    ),
    '',
    table(
      ['process', 'RSS peak MB', 'at start / 10% / 100% MB', 'growth 10%→100% (medians)', 'spread 10%→100% (every sample)', 'RSS by tenth of the crawl MB', 'CPU ms/page', 'of it main thread'],
      result.processes.map((each) => [
        each.name,
        each.rss_peak_mb,
        `${each.rss_start_mb} / ${each.rss_at_10pct_mb} / ${each.rss_at_100pct_mb}`,
        each.rss_growth_10_to_100,
        each.rss_spread_10_to_100,
        each.rss_by_tenth_mb.join(' '),
        each.cpu_ms_per_page,
        each.main_thread_cpu_ms_per_page,
      ]),
    ),
    '',
    `Stored once: ${result.stored_once.crawl_pages_rows} crawl_pages rows for ${result.stored_once.crawl_pages_urls} URLs, ` +
      `${result.stored_once.pages_with_report} with a report; ${result.stored_once.crawl_runs} crawl runs of ${result.stored_once.crawl_run_reports} reports ` +
      `(${result.stored_once.crawl_run_urls} URLs)${result.stored_once.ok ? '' : `: ${result.stored_once.problems.join('; ')}`}.`,
    `Site checks that found something: ${result.site_issues.map((issue) => `${issue.id} ${issue.count}`).join(', ') || 'none'}.`,
    `Floor: ${result.floor.pages} pages in ${result.floor.requests} requests, ${result.floor.cpu_ms_per_page} CPU ms/page, RSS peak ${result.floor.rss_peak_mb} MB; site CPU ${result.site_cpu_ms_per_page} ms/page during the crawl.`,
    '',
    `Targets${result.pages < TARGET_PAGES ? ` (set for ${TARGET_PAGES.toLocaleString('en')} pages; this run has ${result.pages.toLocaleString('en')})` : ''}:`,
    ...targets.map((each) => `- ${each.met ? 'met' : 'MISSED'}: ${each.name} = ${each.value} (target ${each.target})`),
  ].join('\n');
}

export function writeCrawlScaleResult(result: CrawlScaleResult, targets: ScaleTarget[], directory: string, context: object): string {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `crawl-scale-${result.engine}.json`);
  writeFileSync(file, `${JSON.stringify({ ...context, crawl_scale: result, targets }, null, 2)}\n`);
  return file;
}
