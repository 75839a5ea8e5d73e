// The compact facts of one analysed page that a crawl keeps for its site checks (docs/checks.md, "Site
// checks"): taken from the snapshot where it is parsed (an analysis thread), so the snapshot itself
// never travels or stays in memory. The page's links are taken here too, as the crawl records them
// (docs/crawls.md): the first `maxLinks` distinct targets, the internal ones robots.txt allows, keyed
// without the crawl's strip_params, those outside its include/exclude scope marked. Its rich-result
// errors are kept as (type, property, message) for rich_result_errors (rich-result-facts.ts).
import { createHash } from 'node:crypto';
import type { PageSnapshot } from '../parse/page-snapshot.ts';
import { resolveUrl, withoutHash } from '../parse/url.ts';
import { collapseWhitespace } from '../parse/whitespace.ts';
import { crawlUrl, paramStripper, type ParamStripper } from '../crawl/crawl-url.ts';
import { crawlScope } from '../crawl/crawl-scope.ts';
import { parsedRobotsTxt } from '../robots/parsed-robots.ts';
import { evaluateRobots } from '../robots/robots-txt.ts';
import { judgeStructuredData } from '../structured/judge.ts';
import { richResultErrorFacts } from './rich-result-facts.ts';
import type { CheckResult, CrawlLinkOptions, PageCrawlFacts } from './types.ts';

/** Longest title or description kept: enough to tell duplicates apart and to show them. */
const MAX_TEXT = 300;

export function crawlFactsOf(snapshot: PageSnapshot, results: Record<string, CheckResult>, crawl: CrawlLinkOptions): PageCrawlFacts {
  const allowed = robotsFilter(crawl);
  const strip = paramStripper(crawl.stripParams ?? []);
  const targets = linkTargets(snapshot, crawl, strip);
  const links = targets.internal.filter((url) => allowed(url));
  const nofollow = links.filter((url) => targets.nofollow.has(url));
  const scope = crawlScope(crawl.include, crawl.exclude);
  const excluded = links.filter((url) => !scope.allows(url));
  const description = snapshot.metas.find((meta) => meta.name === 'description' && meta.inHead)?.content ?? null;
  const canonical = canonicalOf(results);
  const canonicalOnHost = canonical === null ? null : crawlUrl(canonical, crawl.host, strip);
  return {
    title: folded(snapshot.titles[0] ?? null),
    description: folded(description),
    canonical,
    canonicalBlocked: canonicalOnHost !== null && !allowed(canonicalOnHost),
    noindex: results.noindex?.passed === false,
    textHash: textHashOf(snapshot),
    hreflang: hreflangOf(snapshot),
    links,
    nofollow,
    excluded,
    external: targets.external,
    linksDropped: targets.dropped,
    richResultErrors: richResultErrorFacts(judgeStructuredData(snapshot).richResults),
  };
}

interface LinkTargets {
  /** On the crawled host, as the crawl keys them, in document order (robots.txt not yet asked). */
  internal: string[];
  external: string[];
  /** Internal targets some rel=nofollow link points at. */
  nofollow: Set<string>;
  /** Distinct targets past the cap. */
  dropped: number;
}

/** The page's first `maxLinks` distinct http(s) `<a href>` targets, internal and external together. */
function linkTargets(snapshot: PageSnapshot, crawl: CrawlLinkOptions, strip: ParamStripper | null): LinkTargets {
  const recorded = new Set<string>();
  const past = new Set<string>();
  const targets: LinkTargets = { internal: [], external: [], nofollow: new Set(), dropped: 0 };
  for (const anchor of snapshot.anchors) {
    if (anchor.href === null) continue;
    const url = resolveUrl(anchor.href, snapshot.baseUrl);
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) continue;
    const internal = url.host === crawl.host;
    // An address of the host that is no page address (credentials, too long) is not a target.
    const target = internal ? crawlUrl(url, crawl.host, strip) : pageAddress(url);
    if (target === null) continue;
    if (!recorded.has(target)) {
      if (recorded.size >= crawl.maxLinks) {
        past.add(target);
        continue;
      }
      recorded.add(target);
      (internal ? targets.internal : targets.external).push(target);
    }
    if (internal && anchor.rel.includes('nofollow')) targets.nofollow.add(target);
  }
  targets.dropped = past.size;
  return targets;
}

/** Whether the crawl's robots.txt allows a URL of its host (parsed once per thread and text). */
function robotsFilter(crawl: CrawlLinkOptions): (url: string) => boolean {
  if (crawl.robotsTxt === null) return () => true;
  const robots = parsedRobotsTxt(crawl.robotsTxt);
  const agents = [crawl.robotsToken];
  return (url) => evaluateRobots(robots, url, agents).allowed;
}

function folded(text: string | null): string | null {
  const value = text === null ? '' : collapseWhitespace(text).slice(0, MAX_TEXT);
  return value === '' ? null : value;
}

/** The canonical the canonical check settled on (head or Link header), when it found a valid one. */
function canonicalOf(results: Record<string, CheckResult>): string | null {
  const value = results.canonical?.value as { canonical?: string | null } | undefined;
  const canonical = value?.canonical;
  if (typeof canonical !== 'string' || !URL.canParse(canonical)) return null;
  return pageAddress(new URL(canonical));
}

/** The URL without its fragment, an empty one (`/x#`) included, as the crawl keys its pages. */
function pageAddress(url: URL): string {
  const href = withoutHash(url);
  return href.endsWith('#') ? href.slice(0, -1) : href;
}

/**
 * The parser keeps no copy of the visible text, only its distinct words in order of first use and its
 * counts; two pages agreeing on all three say the same thing, so that is what is hashed.
 */
function textHashOf(snapshot: PageSnapshot): string | null {
  if (snapshot.text.wordCount === 0) return null;
  const hash = createHash('sha256').update(`${snapshot.text.wordCount}:${snapshot.text.charCount}`);
  for (const word of snapshot.text.words) hash.update(`\n${word}`);
  return hash.digest('base64url').slice(0, 22);
}

function hreflangOf(snapshot: PageSnapshot): { lang: string; url: string }[] {
  const alternates: { lang: string; url: string }[] = [];
  for (const link of snapshot.linkTags) {
    if (!link.inHead || !link.rel.includes('alternate') || link.hreflang === null || link.href === null) continue;
    const url = resolveUrl(link.href, snapshot.baseUrl);
    if (url !== null) alternates.push({ lang: link.hreflang.trim().toLowerCase(), url: pageAddress(url) });
  }
  return alternates;
}
