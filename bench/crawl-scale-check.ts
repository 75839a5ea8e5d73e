// The crawl-scale benchmark's check that every page was stored once, read straight from the database
// once the crawl is done: one crawl_pages row per URL of the crawl, one report run (trigger crawl)
// per page crawled, each of a report of its own URL. The database is the benchmark's own, holding
// this one crawl, so every crawl run in it is this crawl's. Only columns both crawl engines have.
import type { Installation } from './crawl-scale-engine.ts';

export interface StoredOnce {
  crawl_pages_rows: number;
  crawl_pages_urls: number;
  /** crawl_pages rows linked to a report: the analysed pages */
  pages_with_report: number;
  crawl_runs: number;
  crawl_run_reports: number;
  crawl_run_urls: number;
  /** every count agrees with pages_crawled and crawl_pages has no URL twice */
  ok: boolean;
  /** what disagreed, in words */
  problems: string[];
}

const count = (rows: Record<string, unknown>[], column: string) => Number(rows[0]?.[column] ?? NaN);

/** Never throws: a query the schema no longer answers is reported as a problem, not the end of hours of crawl. */
export async function checkStoredOnce(installation: Installation, crawlId: number, pagesCrawled: number): Promise<StoredOnce> {
  try {
    return await check(installation, Math.trunc(crawlId), pagesCrawled);
  } catch (error) {
    const nothing = { crawl_pages_rows: NaN, crawl_pages_urls: NaN, pages_with_report: NaN, crawl_runs: NaN, crawl_run_reports: NaN, crawl_run_urls: NaN };
    return { ...nothing, ok: false, problems: [`the check's queries failed: ${(error as Error).message}`] };
  }
}

async function check(installation: Installation, id: number, pagesCrawled: number): Promise<StoredOnce> {
  const pagesRows = await installation.query(
    `SELECT COUNT(*) AS total, COUNT(DISTINCT url) AS urls, COUNT(report_id) AS with_report FROM crawl_pages WHERE crawl_id = ${id}`,
  );
  const runRows = await installation.query(
    "SELECT COUNT(*) AS total, COUNT(DISTINCT r.report_id) AS reports, COUNT(DISTINCT p.url) AS urls " +
      "FROM report_runs r JOIN reports p ON p.id = r.report_id WHERE r.trigger = 'crawl'",
  );
  const result = {
    crawl_pages_rows: count(pagesRows, 'total'),
    crawl_pages_urls: count(pagesRows, 'urls'),
    pages_with_report: count(pagesRows, 'with_report'),
    crawl_runs: count(runRows, 'total'),
    crawl_run_reports: count(runRows, 'reports'),
    crawl_run_urls: count(runRows, 'urls'),
  };
  const problems: string[] = [];
  if (result.crawl_pages_rows !== result.crawl_pages_urls) problems.push(`${result.crawl_pages_rows - result.crawl_pages_urls} URLs have more than one crawl_pages row`);
  for (const field of ['pages_with_report', 'crawl_runs', 'crawl_run_reports', 'crawl_run_urls'] as const) {
    if (result[field] !== pagesCrawled) problems.push(`${field} is ${result[field]}, pages_crawled ${pagesCrawled}`);
  }
  return { ...result, ok: problems.length === 0, problems };
}
