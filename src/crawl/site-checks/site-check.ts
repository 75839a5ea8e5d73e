// What a site check is: metadata for people plus a `run` over the crawl as stored (docs/crawls.md):
// its pages' columns and its links, read in bounded steps (src/crawl/site-scan.ts), never the whole
// site in memory. Site checks judge the site as a whole, once every page is in; they only read.
import type { Importance } from '../../checks/check.ts';
import type { StoredSite } from '../site-scan.ts';

export type { StoredSite };

/** What a site check finds: how many findings, and the first of them (capped) for people. */
export interface SiteCheckOutcome {
  count: number;
  items: unknown[];
}

export interface SiteCheckDefinition {
  /** the key of its issue in a crawl's issues, listed in docs/checks.md, "Site checks" */
  id: string;
  category: 'site';
  importance: Importance;
  /** Shown when it finds nothing: "No internal link is broken". */
  title: string;
  /** Shown when it finds something: "Internal links lead to errors". */
  failureTitle: string;
  /** Why it matters, one or two sentences. */
  description: string;
  /** How to fix what it finds, one or two sentences. */
  howToFix: string;
  run(site: StoredSite): Promise<SiteCheckOutcome>;
}

/** Items kept per site check; `count` keeps the total. */
export const MAX_SITE_ITEMS = 100;
/** Pages named per item (the pages linking to a broken target, ...); the item keeps their count. */
export const MAX_PAGES_PER_ITEM = 20;

export function defineSiteCheck(definition: Omit<SiteCheckDefinition, 'category'>): SiteCheckDefinition {
  return { ...definition, category: 'site' };
}
