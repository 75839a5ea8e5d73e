// The external link checks of a crawl's work jobs (docs/crawls.md, "External links"): a job with no
// page to take claims a few of the crawl's external URLs and checks them at once (at most 2 requests
// at once per external host in this process), each with a lease as pages have, so a job that dies
// leaves its URLs to be claimed again. The crawl finishes only once none is left to check.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import { checkExternal, type ExternalOutcome } from '../crawl/external-check.ts';
import { externalHosts, type HostSlots } from '../crawl/external-hosts.ts';
import { crawlAgent } from '../crawl/user-agents.ts';
import { claimExternals, hasUnsettledExternals, recordExternal } from '../repositories/crawl-external.repository.ts';
import type { CrawlJobSettings } from './crawl-work-queue.ts';

/** URLs one job checks at once (each host still gets at most its slots). */
const EXTERNALS_PER_CLAIM = 8;
/** Claims a URL may have before it is recorded unreachable: a URL whose check kills its process each time. */
const MAX_EXTERNAL_ATTEMPTS = 3;

/**
 * What one round of checks did: `checked` some URLs; `waiting`: none could be claimed but some are
 * still to be checked (by another job, or on a host whose slots are all taken); `none`: nothing left.
 */
type ExternalRound = 'checked' | 'waiting' | 'none';

export function createExternalWork(db: Kysely<Database>, settings: Pick<CrawlJobSettings, 'fetch' | 'claimMs'>, slots: HostSlots = externalHosts) {
  async function checkOne(crawl: CrawlRow, id: number, url: string, attempts: number): Promise<void> {
    const outcome: ExternalOutcome =
      attempts > MAX_EXTERNAL_ATTEMPTS
        ? { status_code: null, redirect_target: null, content_type: null, error: `The link could not be checked in ${MAX_EXTERNAL_ATTEMPTS} attempts.` }
        : await checkExternal(url, {
            // The crawl's User-Agent; never its request headers, which are for the crawled host only.
            fetch: { ...settings.fetch, userAgent: crawlAgent(crawl.user_agent, settings.fetch.userAgent).userAgent },
            slots,
          });
    await recordExternal(db, crawl.id, { id, attempts }, outcome);
  }

  /** One round: claims and checks what it can of the crawl's external URLs. */
  return async function checkExternals(crawl: CrawlRow): Promise<ExternalRound> {
    if (crawl.external !== 1) return 'none';
    const now = Date.now();
    const limits = { now: new Date(now).toISOString(), leaseUntil: new Date(now + settings.claimMs).toISOString() };
    const claimed = await claimExternals(db, crawl.id, limits, EXTERNALS_PER_CLAIM, (host) => slots.room(host), slots.full());
    if (claimed.length === 0) return (await hasUnsettledExternals(db, crawl.id)) ? 'waiting' : 'none';
    const done = await Promise.allSettled(claimed.map(({ id, url, attempts }) => checkOne(crawl, id, url, attempts)));
    const failed = done.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return 'checked';
  };
}
