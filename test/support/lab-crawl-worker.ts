// A worker process of its own for a test app's crawls, in this process: the crawl jobs (the real ones,
// crawl-jobs.ts) on the app's database, their pages analysed on this thread and their lab audits made
// in a stand-in browser, so a lab crawl runs end to end without Chromium. The app is started with
// PAGEGRADE_WORKERS=0 (it runs no job itself) and a browser "available" (any executable will do), so
// POST /crawls takes lab=1 and the test reads everything back through the API. A job that throws ends
// run(): the worker died there, leaving its claims to run out, as a killed process would.
import type { Config } from '../../src/config.ts';
import { createDb, type DbHandle } from '../../src/db/database.ts';
import { createFetchedPageAnalyzer } from '../../src/analysis/analyze-url.ts';
import type { Renderer } from '../../src/render/renderer.ts';
import { fetchOptions } from '../../src/services/index.ts';
import { createCrawlJobs, queueCrawlWork, type CrawlJob, type CrawlWorkJob } from '../../src/services/crawl-jobs.ts';
import * as crawlRepository from '../../src/repositories/crawl.repository.ts';

export interface LabCrawlWorker {
  /** Runs the crawl's jobs one after another until none is left: its start when it has not started, else its work. */
  run(crawlId: number): Promise<void>;
  close(): Promise<void>;
}

export function startLabCrawlWorker(config: Config, browser: Renderer): LabCrawlWorker {
  const handle: DbHandle = createDb(config.databaseUrl);
  const queued: ({ kind: 'crawl.start'; job: CrawlJob } | { kind: 'crawl.work'; job: CrawlWorkJob })[] = [];
  // The app's fetch settings, without analysis threads: this worker parses on its own thread.
  const fetch = fetchOptions({ ...config, analysisThreads: 0 });
  const jobs = createCrawlJobs(
    handle.db,
    createFetchedPageAnalyzer({ fetch, thresholds: config.thresholds, renderer: browser }),
    async (kind, job) => void queued.push({ kind, job }),
    async () => {},
    {
      fetch,
      concurrency: config.crawlConcurrency,
      runsKept: config.runsKept,
      claimMs: config.crawlClaimMs,
      maxExternal: config.crawlMaxExternal,
      sliceMs: 30_000,
      lab: { renderer: browser, thresholds: config.thresholds },
    },
  );
  return {
    async run(crawlId) {
      const crawl = await crawlRepository.findCrawlById(handle.db, crawlId);
      if (crawl === undefined) throw new Error(`no crawl ${crawlId}`);
      const generation = crawl.job_generation;
      if (crawl.origin_facts === null) queued.push({ kind: 'crawl.start', job: { crawlId, generation } });
      else await queueCrawlWork(async (_kind, job) => void queued.push({ kind: 'crawl.work', job }), crawlId, generation, config.crawlConcurrency);
      try {
        for (let next = queued.shift(); next !== undefined; next = queued.shift()) {
          if (next.kind === 'crawl.start') await jobs.start(next.job);
          else await jobs.work(next.job);
        }
      } finally {
        queued.length = 0;
      }
    },
    close: () => handle.destroy(),
  };
}
