// What subscribers hear when a crawl ends (docs/crawls.md, "Scheduled crawls"): crawl.completed always,
// then crawl.regressed when the crawl ended done and its diff with its default `from` (the account's
// latest done crawl of the same project and url created before it, as GET /crawls/{id}/diff takes it)
// shows a regression: the score fell by at least PAGEGRADE_ALERT_SCORE_DROP, the result is worse, or
// a high-importance site check has a new finding. Every trigger counts, create or schedule.
import type { CrawlDiff } from '../crawl/crawl-diff.ts';
import type { Crawl } from './crawl-view.ts';
import type { WebhookEvent } from './webhook-events.ts';

/** What crawl.regressed carries: the crawl, with the diff's data. */
type RegressedCrawl = Crawl & { diff: CrawlDiff };

/**
 * The diff of a done crawl with its default `from` when it shows a regression; null otherwise (the
 * crawl diff service's `regression`, crawl-diff.service.ts).
 */
type RegressionOf = (organizationId: number, crawlId: number) => Promise<{ diff: CrawlDiff } | null>;

/** The part of the webhook service a crawl's events go through. */
interface CrawlEventWebhooks {
  subscribedEvents(organizationId: number): Promise<ReadonlySet<WebhookEvent>>;
  notify(organizationId: number, event: WebhookEvent, data: unknown): Promise<unknown>;
}

/**
 * Sends a crawl's end to the account's webhooks. Each event is read only when subscribed to, so an
 * account without webhooks pays one small query, and the comparison is made only for crawl.regressed.
 * Throws what the database or queue throws; the caller reports it.
 */
export function createCrawlEvents(webhooks: CrawlEventWebhooks, regressionOf: RegressionOf) {
  return async (accountId: number, crawl: () => Promise<Crawl | undefined>): Promise<void> => {
    const wanted = await webhooks.subscribedEvents(accountId);
    if (!wanted.has('crawl.completed') && !wanted.has('crawl.regressed')) return;
    const data = await crawl();
    if (data === undefined) return;
    if (wanted.has('crawl.completed')) await webhooks.notify(accountId, 'crawl.completed', data);
    if (!wanted.has('crawl.regressed') || data.state !== 'done') return;
    // Stored and queued after crawl.completed: its delivery comes second.
    const regression = await regressionOf(accountId, data.id);
    if (regression !== null) await webhooks.notify(accountId, 'crawl.regressed', { ...data, diff: regression.diff } satisfies RegressedCrawl);
  };
}
