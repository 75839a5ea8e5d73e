// A crawl's queue jobs (`crawl.start` once, then `crawl.work` chains: docs/crawls.md, "The work") and
// the settings and notifier every part of that work shares.
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { AnalysisPool } from '../analysis/analysis-pool.ts';
import type { FetchOptions } from '../fetch/options.ts';
import type { CrawlSecrets } from '../crawl/crawl-requests.ts';
import type { CrawlLabSettings } from './crawl-lab-work.ts';
import type { Crawl } from './crawl-view.ts';
import { crawlWorkJobId } from './job-ids.ts';

export interface CrawlJob {
  [key: string]: number;
  crawlId: number;
  /**
   * The crawl's job generation the job belongs to (job-ids.ts): a job of an older one (its crawl was
   * resumed after its jobs were lost) does nothing. Absent in jobs queued before generations: 0.
   */
  generation: number;
}

/** A `crawl.work` job: one of the crawl's chains (`slot`), and which of its two ids it has (`turn`). */
export interface CrawlWorkJob extends CrawlJob {
  /** Absent in jobs queued before chains had ids: their continuations have none either. */
  slot: number;
  turn: number;
}

export type Enqueue = (kind: 'crawl.work', payload: CrawlWorkJob, options: { jobId?: string }) => Promise<void>;

/** Queues the first job of each of a crawl's `slots` chains of work, in the crawl's `generation`. */
export async function queueCrawlWork(enqueue: Enqueue, crawlId: number, generation: number, slots: number): Promise<void> {
  for (let slot = 0; slot < slots; slot++) {
    await enqueue('crawl.work', { crawlId, generation, slot, turn: 0 }, { jobId: crawlWorkJobId(crawlId, generation, slot, 0) });
  }
}

/** Whether a job belongs to its crawl's current job generation. */
export const isCurrent = (crawl: CrawlRow, job: CrawlJob): boolean => crawl.job_generation === (job.generation ?? 0);

/** Tells subscribers a crawl ended (crawl.completed); never throws into the caller's work. */
export type CrawlNotifier = (accountId: number, crawl: () => Promise<Crawl | undefined>) => Promise<void>;

export interface CrawlJobSettings {
  fetch: FetchOptions;
  /** PAGEGRADE_CRAWL_CONCURRENCY: requests at once to the crawled host, across every process */
  concurrency: number;
  runsKept: number;
  /** how long a claim on a page (or an external URL) lasts: past it, it is taken again (its process is thought dead) */
  claimMs: number;
  /** PAGEGRADE_CRAWL_MAX_EXTERNAL: external URLs a crawl checks at most; the rest are stored unchecked */
  maxExternal: number;
  /** how long one work job takes pages before it queues its continuation */
  sliceMs: number;
  /** where robots.txt is parsed and matched (the analysis threads); without one, on this thread */
  pool?: AnalysisPool;
  /** opens the crawls' request headers (PAGEGRADE_SECRET_KEY); without, a crawl given headers fails */
  secrets?: CrawlSecrets;
  /** the browser and thresholds of the lab audits of a lab=1 crawl; without, each of its audits says no browser is there */
  lab?: CrawlLabSettings;
}
