// The ids the application's jobs have in the queue (JobQueue's jobId), made from the report's or the
// crawl's job generation (docs/production.md, "When the queue loses jobs"): a process can ask the
// queue whether it still holds them, and adding one it holds adds nothing. Never a bare number.

export function reportJobId(reportId: number, generation: number): string {
  return `report-${reportId}-${generation}`;
}

export function crawlStartJobId(crawlId: number, generation: number): string {
  return `crawl-${crawlId}-${generation}-start`;
}

/**
 * A crawl runs `slots` chains of work jobs, each queuing its own continuation before it ends. A chain's
 * jobs take turns between two ids: the continuation's id is never the one of the job that queues it,
 * which the queue still holds, and the one before it is gone by then.
 */
export function crawlWorkJobId(crawlId: number, generation: number, slot: number, turn: number): string {
  return `crawl-${crawlId}-${generation}-work-${slot}-${turn}`;
}

/** Every id the jobs of a crawl's generation may have. */
export function crawlJobIds(crawlId: number, generation: number, slots: number): string[] {
  const ids = [crawlStartJobId(crawlId, generation)];
  for (let slot = 0; slot < slots; slot++) ids.push(crawlWorkJobId(crawlId, generation, slot, 0), crawlWorkJobId(crawlId, generation, slot, 1));
  return ids;
}
