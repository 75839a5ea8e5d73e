// How site checks hand on what they find: sorted, so a crawl's issues read the same on every run, and
// capped, so a site with 50,000 broken links stores a page of examples and the true count.
import { MAX_PAGES_PER_ITEM, MAX_SITE_ITEMS, type SiteCheckOutcome } from './site-check.ts';

/** Plain code-unit order: the same on every machine, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Items naming many pages first (they matter most), then by URL. */
export function byPageCountThenUrl<T>(count: (item: T) => number, url: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => count(b) - count(a) || compareText(url(a), url(b));
}

/**
 * Findings met one at a time over a site of any size: all counted, and only the first MAX_SITE_ITEMS
 * in `compare` order held (a few times that between trims), so memory stays bounded.
 */
export class KeptFindings<T> {
  count = 0;
  private held: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  add(finding: T): void {
    this.count++;
    this.held.push(finding);
    if (this.held.length >= 4 * MAX_SITE_ITEMS) this.held = this.first();
  }

  /** The findings kept, in order. */
  first(): T[] {
    return this.held.sort(this.compare).slice(0, MAX_SITE_ITEMS);
  }
}
