// A lab crawl's summary (docs/lab.md, "Lab audits of a crawl"): per URL template, what its pages'
// successful lab audits measured, as the 75th percentile by the nearest-rank method (the value at rank
// ceil(0.75 × n) of the n values sorted ascending, nulls left out; null when none) of LCP, CLS and
// TBT, and the mean of their accessibility scores rounded to an integer (nulls left out). Made from
// the crawl's audited rows (at most lab_pages, 200) each time one is stored, and kept on the crawl.

export interface CrawlLabTemplate {
  /** /product/{n} */
  pattern: string;
  /** its pages whose lab audit succeeded */
  pages: number;
  lcp_ms_p75: number | null;
  cls_p75: number | null;
  tbt_ms_p75: number | null;
  accessibility_score: number | null;
}

export interface CrawlLabSummary {
  /** pages whose lab audit succeeded so far */
  pages: number;
  /** one per template with such a page, in the order of the templates' first pages */
  templates: CrawlLabTemplate[];
}

export const EMPTY_LAB_SUMMARY: CrawlLabSummary = { pages: 0, templates: [] };

/** What one successful audit contributes. */
export interface AuditedLabPage {
  template: string;
  template_rank: number;
  lcp_ms: number | null;
  cls: number | null;
  tbt_ms: number | null;
  accessibility_score: number | null;
}

/** The value at rank ceil(0.75 × n) of the non-null values sorted ascending; null when there is none. */
export function nearestRankP75(values: readonly (number | null)[]): number | null {
  const sorted = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return sorted[Math.ceil(0.75 * sorted.length) - 1];
}

function meanRounded(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  if (present.length === 0) return null;
  return Math.round(present.reduce((sum, value) => sum + value, 0) / present.length);
}

/** The summary of the successful audits, templates in their rank's order. */
export function summariseLabPages(audited: readonly AuditedLabPage[]): CrawlLabSummary {
  const byTemplate = new Map<string, { rank: number; pages: AuditedLabPage[] }>();
  for (const page of audited) {
    const entry = byTemplate.get(page.template);
    if (entry === undefined) byTemplate.set(page.template, { rank: page.template_rank, pages: [page] });
    else entry.pages.push(page);
  }
  const templates = [...byTemplate]
    .sort(([, a], [, b]) => a.rank - b.rank)
    .map(([pattern, { pages }]) => ({
      pattern,
      pages: pages.length,
      lcp_ms_p75: nearestRankP75(pages.map((page) => page.lcp_ms)),
      cls_p75: nearestRankP75(pages.map((page) => page.cls)),
      tbt_ms_p75: nearestRankP75(pages.map((page) => page.tbt_ms)),
      accessibility_score: meanRounded(pages.map((page) => page.accessibility_score)),
    }));
  return { pages: audited.length, templates };
}
