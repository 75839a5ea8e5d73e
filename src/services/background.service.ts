// Background work: the jobs this application runs off the request path, on whichever queue engine
// the settings chose. The handlers are service functions; they never know which engine runs them.
import type { GiveUpHandlers, JobHandlers, JobKinds, JobQueue } from '../queue/job-queue.ts';
import type { AnalyzeReportJob } from './report-analysis-jobs.ts';
import type { CrawlJob, CrawlWorkJob } from './crawl-jobs.ts';

/** Every kind of background job, with its payload. */
export interface AppJobs extends JobKinds {
  /** A report's analysis (report-analysis-jobs.ts). */
  'report.analyse': AnalyzeReportJob;
  /** A crawl's robots.txt and seeds, then its work jobs (crawl-jobs.ts). */
  'crawl.start': CrawlJob;
  /** A slice of a crawl's pages, taken one at a time (crawl-jobs.ts). */
  'crawl.work': CrawlWorkJob;
  /** One attempt at a webhook delivery (webhook-delivery.ts); deliveries have slots of their own. */
  'webhook.deliver': { deliveryId: string; attempt: number };
}

/** Work a process that runs jobs also does every so often (the scheduler), with where its errors go. */
export interface PeriodicTask {
  everyMs: number;
  run(): Promise<void>;
  onError(error: unknown): void;
}

export function createBackgroundService(
  queue: JobQueue<AppJobs>,
  handlers: JobHandlers<AppJobs>,
  onGiveUp: GiveUpHandlers<AppJobs>,
  periodic: PeriodicTask[] = [],
) {
  const timers: NodeJS.Timeout[] = [];
  let stopping = false;
  const running = new Set<Promise<void>>();

  function every(task: PeriodicTask): void {
    let busy = false;
    const tick = () => {
      // A slow run (a database under load) is never overlapped by the next.
      if (busy || stopping) return;
      busy = true;
      const run = task
        .run()
        .catch(task.onError)
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    timers.push(setInterval(tick, task.everyMs));
    tick();
  }

  return {
    enqueue: queue.enqueue.bind(queue),
    /**
     * Runs jobs in this process, at most `concurrency` at once, until close(). A process with no
     * handler has nothing to run and takes no jobs, so it never takes one another process could run.
     */
    start(concurrency: number): void {
      if (Object.keys(handlers).length === 0) return;
      queue.start(handlers, { concurrency, onGiveUp });
      for (const task of periodic) every(task);
    },
    /** Takes no more jobs, lets the running ones finish, and closes the queue's connections. */
    async close(): Promise<void> {
      stopping = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
      await queue.close();
    },
  };
}
