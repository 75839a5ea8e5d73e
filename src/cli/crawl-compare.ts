// `crawl --compare <file>`: an earlier `crawl --json` output (or its .json --output), read and checked
// before anything is crawled, so a wrong file is a usage error (exit 2) and not a comparison against
// nothing. The crawl is then compared with it as GET /api/v1/crawls/{id}/diff compares two crawls
// (src/crawl/crawl-diff.ts), and "What changed" is printed under the summary.
import { diffCrawls, regressionReasons, type CrawlDiff, type CrawlSnapshot } from '../crawl/crawl-diff.ts';
import type { Crawl, CrawlIssue, CrawlPage } from '../services/crawl-view.ts';
import { UsageError } from './command.ts';
import { isObject, readJsonOptionFile } from './json-option-file.ts';
import { printable, type Style } from './terminal-text.ts';

const RESULTS: readonly unknown[] = ['good', 'decent', 'bad'];
const IMPORTANCES: readonly unknown[] = ['high', 'medium', 'low'];
/** Pages whose status changed, listed under "What changed"; the JSON's diff has them all (up to 100). */
const STATUS_CHANGES_SHOWN = 10;

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** What is wrong with the crawl object, or undefined; only what the diff reads is checked. */
function crawlProblem(crawl: unknown): string | undefined {
  if (!isObject(crawl)) return '"crawl" is not an object';
  if (!isCount(crawl.id)) return '"crawl.id" is not a whole number';
  if (typeof crawl.url !== 'string') return '"crawl.url" is not a string';
  if (crawl.state !== 'done') return `the crawl in it did not finish (its state is ${JSON.stringify(crawl.state)})`;
  if (crawl.score !== null && (typeof crawl.score !== 'number' || crawl.score < 0 || crawl.score > 100)) return '"crawl.score" is not a number from 0 to 100 or null';
  if (crawl.result !== null && !RESULTS.includes(crawl.result)) return '"crawl.result" is not good, decent, bad or null';
  if (!isObject(crawl.issues) || !['high', 'medium', 'low'].every((importance) => isCount((crawl.issues as Record<string, unknown>)[importance]))) {
    return '"crawl.issues" is not {"high", "medium", "low"} counts';
  }
  if (!isCount(crawl.pages_crawled)) return '"crawl.pages_crawled" is not a whole number';
  if (crawl.limit_reached !== undefined && typeof crawl.limit_reached !== 'boolean') return '"crawl.limit_reached" is not true or false';
  if (crawl.finished_at !== null && typeof crawl.finished_at !== 'string') return '"crawl.finished_at" is not a string';
  return undefined;
}

function issueProblem(issue: unknown, index: number): string | undefined {
  const where = `issues entry ${index + 1}`;
  if (!isObject(issue)) return `${where} is not an object`;
  if (typeof issue.id !== 'string') return `${where} has no "id"`;
  if (!IMPORTANCES.includes(issue.importance)) return `${where}: "importance" is not high, medium or low`;
  if (!isCount(issue.count)) return `${where}: "count" is not a whole number`;
  if (!Array.isArray(issue.items)) return `${where}: "items" is not an array`;
  return undefined;
}

function pageProblem(page: unknown, index: number): string | undefined {
  const where = `pages entry ${index + 1}`;
  if (!isObject(page)) return `${where} is not an object`;
  if (typeof page.url !== 'string') return `${where} has no "url"`;
  if (page.status_code !== null && !isCount(page.status_code)) return `${where}: "status_code" is not a whole number or null`;
  return undefined;
}

function outputProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'it is not a JSON object';
  for (const key of ['crawl', 'issues', 'pages']) if (!(key in value)) return `it has no "${key}"`;
  if (!Array.isArray(value.issues)) return '"issues" is not an array';
  if (!Array.isArray(value.pages)) return '"pages" is not an array';
  return crawlProblem(value.crawl) ?? value.issues.map(issueProblem).find(Boolean) ?? value.pages.map(pageProblem).find(Boolean);
}

/** A crawl as the diff takes it: its visited internal URLs with their status. */
export function crawlSnapshot(crawl: Crawl, issues: CrawlIssue[], pages: readonly Pick<CrawlPage, 'url' | 'status_code' | 'external'>[]): CrawlSnapshot {
  const visited = new Map<string, number | null>();
  for (const page of pages) if (page.external !== true) visited.set(page.url, page.status_code);
  return { crawl, issues, visited };
}

function parseEarlierCrawl(value: unknown, path: string): CrawlSnapshot {
  const problem = outputProblem(value);
  if (problem !== undefined) throw new UsageError(`--compare ${path} is not the output of \`pagegrade crawl --json\`: ${problem}.`);
  const { crawl, issues, pages } = value as { crawl: Crawl; issues: CrawlIssue[]; pages: CrawlPage[] };
  // Outputs written before the crawl said whether a bound was met did not cut any crawl short.
  return crawlSnapshot({ ...crawl, limit_reached: crawl.limit_reached ?? false }, issues, pages);
}

export async function readEarlierCrawl(path: string): Promise<CrawlSnapshot> {
  return parseEarlierCrawl(await readJsonOptionFile('--compare', path), path);
}

export interface CrawlComparison {
  diff: CrawlDiff;
  /** why the crawl regressed, by the rule of crawl.regressed; empty when it did not */
  reasons: string[];
}

export function compareCrawls(earlier: CrawlSnapshot, now: CrawlSnapshot, scoreDrop: number): CrawlComparison {
  const diff = diffCrawls(earlier, now);
  return { diff, reasons: regressionReasons(diff, scoreDrop) };
}

const signed = (delta: number) => (delta > 0 ? `+${delta}` : delta < 0 ? `${delta}` : '±0');

/** "What changed" under the crawl's summary. */
export function renderCrawlComparison({ diff, reasons }: CrawlComparison, style: Style): string {
  const { from, to } = diff;
  const verdict = from.result === to.result ? `still ${to.result ?? 'none'}` : `${from.result ?? 'none'} → ${to.result ?? 'none'}`;
  const delta = diff.score_delta === null ? '' : ` (${signed(diff.score_delta)})`;
  const lines = [
    '',
    style.bold(`What changed since the crawl of ${printable(String(from.finished_at ?? from.url))}`),
    `  Score ${from.score ?? '-'} → ${to.score ?? '-'}${delta} · ${verdict}`,
  ];
  if (diff.issues.length === 0) lines.push('  No site check found anything in either crawl.');
  for (const issue of diff.issues) {
    const parts = [`${issue.new.length} new`, `${issue.fixed.length} fixed`, `${issue.persisting} persisting`];
    if (issue.not_comparable > 0) parts.push(`${issue.not_comparable} not comparable`);
    const mark = issue.new.length > 0 ? style.red('✗') : issue.fixed.length > 0 ? style.green('✓') : ' ';
    lines.push(`  ${mark} ${style.bold(issue.id)} [${issue.importance}]: ${parts.join(', ')}`);
  }
  const { added, removed, status_changed } = diff.pages;
  lines.push(`  Pages: ${added} added, ${removed} removed, ${status_changed.length} with another status`);
  for (const change of status_changed.slice(0, STATUS_CHANGES_SHOWN)) {
    lines.push(`    ${change.from ?? 'failed'} → ${change.to ?? 'failed'}  ${printable(change.url)}`);
  }
  if (status_changed.length > STATUS_CHANGES_SHOWN) lines.push(style.dim(`    ... and ${status_changed.length - STATUS_CHANGES_SHOWN} more`));
  if (reasons.length > 0) lines.push(`  ${style.red('Got worse:')} ${reasons.map(printable).join('; ')}`);
  return `${lines.join('\n')}\n`;
}
