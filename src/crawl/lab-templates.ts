// Which of a crawl's pages get a lab audit (docs/lab.md, "Lab audits of a crawl"): at most `labPages`,
// chosen to cover the site's URL templates. A page's template is its path with every run of digits
// replaced by {n}, the query dropped. Templates go in the order of their first page (by depth, then
// URL), pages round-robin across them (the first of each, then the second of each, ...), and within a
// template by depth, then URL. Pages without a click depth (known only from a sitemap) come after
// every page with one, by URL, as the crawler itself takes them last.
//
// Bounded, whatever the crawl's size: the candidates are read one depth at a time, in batches, in any
// order within the depth, and only what can still be picked is kept. At most `labPages` templates can
// get a page (the first page of each of the first `labPages` templates fills a round), and no template
// gets more than `labPages - templates + 1` pages, so at most labPages² candidates are held, never the
// site. Within one depth, two passes: the first finds the new templates that take the slots left
// (their first URL at this depth is among the smallest), the second keeps the smallest URLs of each
// template kept. URLs compare as strings: the crawl's URLs are serialised by URL (ASCII, percent-
// encoded), whose code-unit order is code-point order.

/** A page that may be audited: an HTML page of the crawl that answered 2xx and has its run. */
export interface LabCandidate {
  /** its crawl_pages id */
  pageId: number;
  url: string;
  reportId: number;
  runNumber: number;
}

export interface ChosenLabPage extends LabCandidate {
  /** 0, 1, ...: the order of the pick */
  pick: number;
  template: string;
  /** the template's place in the order of the templates' first pages */
  templateRank: number;
}

/** `https://shop.example/product/12?x=1` -> `/product/{n}`; `/blog/2024/05/post-3` -> `/blog/{n}/{n}/post-{n}`. */
export function urlTemplate(url: string): string {
  return new URL(url).pathname.replace(/[0-9]+/g, '{n}');
}

/** One depth's candidates, read in batches; called once per pass (twice at most). */
export type ReadDepth = () => AsyncIterable<readonly LabCandidate[]>;

interface TemplatePages {
  pattern: string;
  /** kept pages, by depth then URL */
  pages: LabCandidate[];
}

/**
 * The pages to audit, in the order of the picks. `depths`: a reader of each depth's candidates, the
 * smallest depth first, the pages without a depth last.
 */
export async function chooseLabPages(labPages: number, depths: Iterable<ReadDepth>): Promise<ChosenLabPage[]> {
  const templates: TemplatePages[] = [];
  const byPattern = new Map<string, TemplatePages>();
  for (const readDepth of depths) {
    // Every template has its first page already: no later page is ever picked before theirs.
    if (templates.length >= labPages) break;
    const fresh = await newTemplates(readDepth, labPages - templates.length, byPattern);
    for (const pattern of fresh) {
      const entry = { pattern, pages: [] };
      templates.push(entry);
      byPattern.set(pattern, entry);
    }
    const perTemplate = labPages - templates.length + 1;
    // Nothing this depth holds can be picked: no template, or every one already has its pages.
    if (templates.every((entry) => entry.pages.length >= perTemplate)) continue;
    await keepSmallestPages(readDepth, byPattern, perTemplate);
  }
  return roundRobin(templates, labPages);
}

/**
 * The templates first met at this depth that take the `slots` left, in the order of their smallest
 * URL here. One template's smallest URL so far per entry, at most `slots` entries: a template pushed
 * out comes back if a smaller URL of it turns up, so the `slots` smallest are kept whatever the order.
 */
async function newTemplates(readDepth: ReadDepth, slots: number, known: ReadonlyMap<string, TemplatePages>): Promise<string[]> {
  const smallest = new Map<string, string>();
  let largest: { pattern: string; url: string } | null = null;
  const findLargest = () => {
    largest = null;
    for (const [pattern, url] of smallest) if (largest === null || url > largest.url) largest = { pattern, url };
  };
  for await (const batch of readDepth()) {
    for (const { url } of batch) {
      const pattern = urlTemplate(url);
      if (known.has(pattern)) continue;
      const seen = smallest.get(pattern);
      if (seen !== undefined) {
        if (url < seen) {
          smallest.set(pattern, url);
          if (largest?.pattern === pattern) findLargest();
        }
        continue;
      }
      if (smallest.size < slots) {
        smallest.set(pattern, url);
        if (largest === null || url > largest.url) largest = { pattern, url };
        continue;
      }
      if (largest === null || url >= largest.url) continue;
      smallest.delete(largest.pattern);
      smallest.set(pattern, url);
      findLargest();
    }
  }
  return [...smallest].sort(([, a], [, b]) => (a < b ? -1 : 1)).map(([pattern]) => pattern);
}

/** Adds each known template's smallest URLs at this depth after its pages of smaller depths, up to `perTemplate` pages in all. */
async function keepSmallestPages(readDepth: ReadDepth, byPattern: ReadonlyMap<string, TemplatePages>, perTemplate: number): Promise<void> {
  const atDepth = new Map<TemplatePages, LabCandidate[]>();
  for await (const batch of readDepth()) {
    for (const candidate of batch) {
      const entry = byPattern.get(urlTemplate(candidate.url));
      if (entry === undefined) continue;
      const room = perTemplate - entry.pages.length;
      if (room <= 0) continue;
      let kept = atDepth.get(entry);
      if (kept === undefined) atDepth.set(entry, (kept = []));
      if (kept.length >= room && candidate.url >= kept[kept.length - 1].url) continue;
      kept.splice(sortedIndex(kept, candidate.url), 0, candidate);
      if (kept.length > room) kept.pop();
    }
  }
  for (const [entry, kept] of atDepth) entry.pages.push(...kept);
}

/** Where `url` goes in `pages`, sorted by URL. */
function sortedIndex(pages: readonly LabCandidate[], url: string): number {
  let low = 0;
  let high = pages.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (pages[middle].url < url) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first page of each template, then the second of each, ... until `labPages` or none is left. */
function roundRobin(templates: readonly TemplatePages[], labPages: number): ChosenLabPage[] {
  const picks: ChosenLabPage[] = [];
  for (let round = 0; picks.length < labPages; round++) {
    let any = false;
    for (const [templateRank, { pattern, pages }] of templates.entries()) {
      if (round >= pages.length) continue;
      any = true;
      picks.push({ ...pages[round], pick: picks.length, template: pattern, templateRank });
      if (picks.length === labPages) break;
    }
    if (!any) break;
  }
  return picks;
}
