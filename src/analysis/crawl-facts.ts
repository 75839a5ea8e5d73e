// The compact facts of one analysed page that a crawl keeps for its site checks (docs/checks.md, "Site
// checks"): taken from the snapshot where it is parsed (an analysis thread), so the snapshot itself
// never travels or stays in memory.
import { createHash } from 'node:crypto';
import type { FetchedPage } from '../fetch/types.ts';
import type { PageSnapshot } from '../parse/page-snapshot.ts';
import { resolveUrl, withoutHash } from '../parse/url.ts';
import { collapseWhitespace } from '../parse/whitespace.ts';
import type { CheckResult, PageCrawlFacts } from './types.ts';

/** Longest title or description kept: enough to tell duplicates apart and to show them. */
const MAX_TEXT = 300;

export function crawlFactsOf(page: FetchedPage, snapshot: PageSnapshot, results: Record<string, CheckResult>): PageCrawlFacts {
  const host = new URL(page.finalUrl).host;
  const links = new Set<string>();
  const nofollow = new Set<string>();
  for (const anchor of snapshot.anchors) {
    if (anchor.href === null) continue;
    const url = resolveUrl(anchor.href, snapshot.baseUrl);
    if (url === null || url.host !== host || (url.protocol !== 'http:' && url.protocol !== 'https:')) continue;
    const target = pageAddress(url);
    links.add(target);
    if (anchor.rel.includes('nofollow')) nofollow.add(target);
  }
  const description = snapshot.metas.find((meta) => meta.name === 'description' && meta.inHead)?.content ?? null;
  return {
    title: folded(snapshot.titles[0] ?? null),
    description: folded(description),
    canonical: canonicalOf(results),
    noindex: results.noindex?.passed === false,
    textHash: textHashOf(snapshot),
    hreflang: hreflangOf(snapshot),
    links: [...links],
    nofollow: [...nofollow],
  };
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
