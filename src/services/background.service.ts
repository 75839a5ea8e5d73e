// Background work: the jobs this application runs off the request path, on whichever queue engine
// the settings chose. The handlers are service functions; they never know which engine runs them.
import type { GiveUpHandlers, JobHandlers, JobKinds, JobQueue } from '../queue/job-queue.ts';
import type { AnalyseReportJob } from './report-analysis-jobs.ts';

/** Every kind of background job, with its payload. */
export interface AppJobs extends JobKinds {
  /** A report's analysis (report-analysis-jobs.ts). */
  'report.analyse': AnalyseReportJob;
  /** One attempt at a webhook delivery (webhook-delivery.ts). */
  'webhook.deliver': { deliveryId: string; attempt: number };
}

export function createBackgroundService(queue: JobQueue<AppJobs>, handlers: JobHandlers<AppJobs>, onGiveUp: GiveUpHandlers<AppJobs>) {
  return {
    enqueue: queue.enqueue.bind(queue),
    /**
     * Runs jobs in this process, at most `concurrency` at once, until close(). A process with no
     * handler has nothing to run and takes no jobs, so it never takes one another process could run.
     */
    start(concurrency: number): void {
      if (Object.keys(handlers).length === 0) return;
      queue.start(handlers, { concurrency, onGiveUp });
    },
    /** Takes no more jobs, lets the running ones finish, and closes the queue's connections. */
    close: () => queue.close(),
  };
}
