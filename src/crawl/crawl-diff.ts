// What changed between two crawls (docs/crawls.md, "Comparing crawls"): a pure function of the two, so
// GET /api/v1/crawls/{id}/diff and `pagegrade crawl --compare` compare alike. A finding is a site
// check's item, known across crawls by its key; one that went away is "fixed" only when the later
// crawl looked again at every page it concerned, since a crawl that never reached a page cannot say
// the finding there is gone.
import { RESULT_RANK } from '../db/tables/report.table.ts';
import type { Crawl, CrawlIssue } from '../services/crawl-view.ts';
import { compareText } from './site-checks/site-outcome.ts';

export interface CrawlSnapshot {
  crawl: Crawl;
  issues: CrawlIssue[];
  /** every internal URL visited -> its status_code */
  visited: ReadonlyMap<string, number | null>;
}

/** What the diff says of each crawl. */
export type DiffSide = Pick<Crawl, 'id' | 'url' | 'score' | 'result' | 'issues' | 'pages_crawled' | 'limit_reached' | 'finished_at'>;

export interface IssueDiff {
  id: string;
  importance: string;
  /** findings of `to` whose key `from` did not have, as `to` has them (at most MAX_LISTED) */
  new: unknown[];
  /** findings of `from` gone from `to` on pages both crawls visited, as `from` had them (at most MAX_LISTED) */
  fixed: unknown[];
  /** keys in both */
  persisting: number;
  /** findings of `from` gone from `to` that the later crawl could not judge */
  not_comparable: number;
}

interface StatusChange {
  url: string;
  from: number | null;
  to: number | null;
}

export interface PageChanges {
  added: number;
  removed: number;
  /** by URL, at most MAX_LISTED */
  status_changed: StatusChange[];
}

export interface CrawlDiff {
  from: DiffSide;
  to: DiffSide;
  score_delta: number | null;
  issues: IssueDiff[];
  pages: PageChanges;
}

/** Items of `new` and `fixed`, and entries of `status_changed`, listed at most. */
export const MAX_LISTED = 100;

type Item = Record<string, unknown>;

interface FindingShape {
  /** what identifies the finding in any crawl */
  key(item: Item): unknown[];
  /** the pages it concerns, as its crawl recorded them */
  pages(item: Item): unknown[];
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const byUrlLinkedFrom: FindingShape = { key: (item) => [item.url], pages: (item) => list(item.linked_from) };
const byUrlItself: FindingShape = { key: (item) => [item.url], pages: (item) => [item.url] };
const groupOn = (field: string): FindingShape => ({ key: (item) => [item[field]], pages: (item) => list(item.pages) });

/** The keys of each site check's items, as src/crawl/site-checks/*.ts write them. */
const SHAPES: Record<string, FindingShape> = {
  broken_links: byUrlLinkedFrom,
  redirected_links: byUrlLinkedFrom,
  broken_external_links: byUrlLinkedFrom,
  redirect_chains: byUrlItself,
  orphan_pages: byUrlItself,
  sitemap_entries: byUrlItself,
  deep_pages: byUrlItself,
  duplicate_titles: groupOn('title'),
  duplicate_descriptions: groupOn('description'),
  duplicate_content: groupOn('text_hash'),
  canonical_targets: groupOn('canonical'),
  hreflang_reciprocity: { key: (item) => [item.page, item.alternate, item.lang], pages: (item) => [item.page, item.alternate] },
  internal_nofollow: { key: (item) => [item.page, item.target], pages: (item) => [item.page] },
  rich_result_errors: { key: (item) => [item.type, item.property, item.message], pages: (item) => list(item.pages) },
};

const recordOf = (item: unknown): Item => (item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Item) : {});

/** A finding's key; a check this code does not know (a newer server's) is keyed by its whole item. */
function keyOf(checkId: string, item: unknown): string {
  const shape = SHAPES[checkId];
  return JSON.stringify(shape === undefined ? item : shape.key(recordOf(item)));
}

/** The pages a finding concerns; none for a check this code does not know. */
function pagesOf(checkId: string, item: unknown): string[] {
  const shape = SHAPES[checkId];
  return shape === undefined ? [] : shape.pages(recordOf(item)).filter((url): url is string => typeof url === 'string');
}

/** Site checks a crawl did not run, so that a finding of the earlier crawl cannot be gone from it. */
function checksNotRun(crawl: Crawl): Set<string> {
  // external=0: links to other hosts were not checked. (An older `--json` output has no `external`: checked.)
  return new Set(crawl.external === 0 ? ['broken_external_links'] : []);
}

/** A crawl's findings of one check by key (and whether its items were cut at the stored cap). */
interface Findings {
  importance: string;
  byKey: Map<string, unknown>;
  /** count > items: findings past the stored items exist, unknown by key */
  partial: boolean;
}

function findingsOf(issues: readonly CrawlIssue[]): Map<string, Findings> {
  const byCheck = new Map<string, Findings>();
  for (const issue of issues) {
    const byKey = new Map<string, unknown>();
    for (const item of issue.items) {
      const key = keyOf(issue.id, item);
      if (!byKey.has(key)) byKey.set(key, item);
    }
    byCheck.set(issue.id, { importance: issue.importance, byKey, partial: issue.count > issue.items.length });
  }
  return byCheck;
}

const IMPORTANCE_ORDER: Record<string, number> = { high: 0, medium: 1, low: 2 };

/** The findings of `from` that `to` does not have: the ones that are fixed, or cannot be judged. */
function* goneFindings(from: ReadonlyMap<string, Findings>, to: ReadonlyMap<string, Findings>): Generator<{ checkId: string; item: unknown; toPartial: boolean }> {
  for (const [checkId, before] of from) {
    const after = to.get(checkId);
    for (const [key, item] of before.byKey) if (!after?.byKey.has(key)) yield { checkId, item, toPartial: after?.partial ?? false };
  }
}

/**
 * The pages whose visits decide whether a finding of `from` that `to` lacks is fixed: what the caller
 * must look up when it cannot hold every visited URL (a crawl of a million pages). Bounded by the
 * stored items: at most 100 findings a check, each naming at most 20 pages.
 */
export function pagesToJudge(from: readonly CrawlIssue[], to: readonly CrawlIssue[]): Set<string> {
  const urls = new Set<string>();
  for (const { checkId, item } of goneFindings(findingsOf(from), findingsOf(to))) for (const url of pagesOf(checkId, item)) urls.add(url);
  return urls;
}

/** What decides whether a finding of the earlier crawl that the later one lacks is fixed. */
interface FindingJudge {
  /** the later crawl (the site checks it ran) */
  later: Crawl;
  /** whether both crawls visited the URL */
  visitedByBoth(url: string): boolean;
}

/** The findings compared check by check: one entry per check with a finding in either crawl, by importance then id. */
export function diffIssues(from: readonly CrawlIssue[], to: readonly CrawlIssue[], judge: FindingJudge): IssueDiff[] {
  const before = findingsOf(from);
  const after = findingsOf(to);
  const entries = new Map<string, IssueDiff>();
  const entryOf = (checkId: string): IssueDiff => {
    let entry = entries.get(checkId);
    if (entry === undefined) {
      const importance = (after.get(checkId) ?? before.get(checkId))!.importance;
      entry = { id: checkId, importance, new: [], fixed: [], persisting: 0, not_comparable: 0 };
      entries.set(checkId, entry);
    }
    return entry;
  };
  for (const checkId of new Set([...after.keys(), ...before.keys()])) {
    const entry = entryOf(checkId);
    const earlier = before.get(checkId);
    for (const [key, item] of after.get(checkId)?.byKey ?? []) {
      if (earlier?.byKey.has(key)) entry.persisting++;
      else if (entry.new.length < MAX_LISTED) entry.new.push(item);
    }
  }
  const notRun = checksNotRun(judge.later);
  for (const { checkId, item, toPartial } of goneFindings(before, after)) {
    const entry = entryOf(checkId);
    // A later crawl whose stored items were cut may have the finding past them: it cannot say it is gone.
    const judged = !toPartial && !notRun.has(checkId) && pagesOf(checkId, item).every((url) => judge.visitedByBoth(url));
    if (!judged) entry.not_comparable++;
    else if (entry.fixed.length < MAX_LISTED) entry.fixed.push(item);
  }
  return [...entries.values()].sort((a, b) => (IMPORTANCE_ORDER[a.importance] ?? 3) - (IMPORTANCE_ORDER[b.importance] ?? 3) || compareText(a.id, b.id));
}

/**
 * URLs visited by both crawls whose status differs, met one at a time in any order: the first
 * MAX_LISTED by URL are kept (a few times that between trims), so memory stays bounded.
 */
export class StatusChanges {
  private held: StatusChange[] = [];

  add(url: string, from: number | null, to: number | null): void {
    if (from === to) return;
    this.held.push({ url, from, to });
    if (this.held.length >= 4 * MAX_LISTED) this.held = this.first();
  }

  first(): StatusChange[] {
    return this.held.sort((a, b) => compareText(a.url, b.url)).slice(0, MAX_LISTED);
  }
}

function comparePages(from: ReadonlyMap<string, number | null>, to: ReadonlyMap<string, number | null>): PageChanges {
  const changes = new StatusChanges();
  let both = 0;
  for (const [url, status] of from) {
    if (!to.has(url)) continue;
    both++;
    changes.add(url, status, to.get(url)!);
  }
  return { added: to.size - both, removed: from.size - both, status_changed: changes.first() };
}

function diffSide(crawl: Crawl): DiffSide {
  const { id, url, score, result, issues, pages_crawled, limit_reached, finished_at } = crawl;
  return { id, url, score, result, issues: { ...issues }, pages_crawled, limit_reached, finished_at };
}

/** The diff from its parts: what a caller that compared the pages itself (in bounded steps) puts together. */
export function assembleDiff(from: Crawl, to: Crawl, issues: IssueDiff[], pages: PageChanges): CrawlDiff {
  const scoreDelta = from.score === null || to.score === null ? null : to.score - from.score;
  return { from: diffSide(from), to: diffSide(to), score_delta: scoreDelta, issues, pages };
}

export function diffCrawls(from: CrawlSnapshot, to: CrawlSnapshot): CrawlDiff {
  const visitedByBoth = (url: string) => from.visited.has(url) && to.visited.has(url);
  const issues = diffIssues(from.issues, to.issues, { later: to.crawl, visitedByBoth });
  return assembleDiff(from.crawl, to.crawl, issues, comparePages(from.visited, to.visited));
}

/**
 * Why `to` regressed against `from` as crawl.regressed says (score fell by >= scoreDrop, result
 * worse, a high-importance site check with a new finding); empty when it did not. One sentence a
 * reason, each high-importance check its own, named.
 */
export function regressionReasons(diff: CrawlDiff, scoreDrop: number): string[] {
  const reasons: string[] = [];
  const { from, to, score_delta: delta } = diff;
  if (delta !== null && delta < 0 && -delta >= scoreDrop) reasons.push(`the score fell by ${-delta} (${from.score} → ${to.score})`);
  if (from.result !== null && to.result !== null && RESULT_RANK[to.result] < RESULT_RANK[from.result]) {
    reasons.push(`the result went from ${from.result} to ${to.result}`);
  }
  for (const issue of diff.issues) {
    if (issue.importance !== 'high' || issue.new.length === 0) continue;
    reasons.push(`${issue.id} has ${issue.new.length} new ${issue.new.length === 1 ? 'finding' : 'findings'} (high importance)`);
  }
  return reasons;
}
