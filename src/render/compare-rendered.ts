// What JavaScript changed: the raw HTML's snapshot against the rendered DOM's, both made by the same
// parsePage. A pure function of the two, so the check (javascript_dependency) and the report page read
// one comparison, and a test needs no browser.
import type { PageSnapshot } from '../parse/page-snapshot.ts';
import { parsePage } from '../parse/parse-page.ts';
import { PageText } from '../fetch/page-text.ts';
import { anchorTargets, isWebProtocol, withoutFragment } from '../parse/link-urls.ts';
import { robotsDirectives } from '../parse/robots-directives.ts';
import { hostnameHasSite, resolveUrl, siteHostname } from '../parse/url.ts';
import { collapseWhitespace } from '../parse/whitespace.ts';
// The JSON-LD reader the structured_data check uses, so both name the same types.
import { readJsonLd } from '../checks/miscellaneous/json-ld.ts';
import type { RenderOutcome } from './render-page.ts';

interface Pair<T> {
  raw: T;
  rendered: T;
}

/** The report's `rendered` (docs/api.md, `Report`). */
export interface RenderedComparison {
  title: Pair<string | null>;
  meta_description: Pair<string | null>;
  canonical: Pair<string | null>;
  /** The robots meta tags' directives, lower-case, in order, joined by ", ". */
  robots: Pair<string | null>;
  h1: Pair<string[]>;
  links: {
    /** Distinct http(s) link targets (fragments dropped; jumps within the page left out). */
    raw: number;
    rendered: number;
    /** Targets only the rendered page links to, internal ones first, up to MAX_ONLY_RENDERED. */
    only_rendered: string[];
    /** The same for links to the page's own site (host with or without www.). */
    internal: { raw: number; rendered: number; only_rendered: number };
  };
  words: Pair<number>;
  json_ld_types: Pair<string[]>;
}

/** A rendering that failed: the report is made all the same, and says why there is no comparison. */
export interface RenderFailure {
  error: string;
}

export type Rendered = RenderedComparison | RenderFailure;

export function renderFailed(rendered: Rendered): rendered is RenderFailure {
  return 'error' in rendered;
}

const MAX_ONLY_RENDERED = 20;

/** What the analysis keeps of a rendering: the comparison with the raw HTML's snapshot, or why there is none. */
export function renderedComparison(raw: PageSnapshot, rendering: RenderOutcome, pageUrl: string): Rendered {
  if (!rendering.ok) return { error: rendering.reason };
  return compareRendered(raw, parsePage(PageText.of(rendering.html), rendering.finalUrl), pageUrl);
}

/** `pageUrl`: the URL the raw HTML came from; each snapshot resolves its own links against its base. */
export function compareRendered(raw: PageSnapshot, rendered: PageSnapshot, pageUrl: string): RenderedComparison {
  const site = URL.canParse(pageUrl) ? siteHostname(new URL(pageUrl).hostname) : null;
  const rawLinks = linkTargets(raw, site);
  const renderedLinks = linkTargets(rendered, site);
  const onlyRendered = [...renderedLinks.keys()].filter((url) => !rawLinks.has(url));
  const onlyRenderedInternal = onlyRendered.filter((url) => renderedLinks.get(url));
  const onlyRenderedExternal = onlyRendered.filter((url) => !renderedLinks.get(url));
  const internalCount = (links: Map<string, boolean>) => [...links.values()].filter(Boolean).length;
  return {
    title: pair(raw, rendered, title),
    meta_description: pair(raw, rendered, description),
    canonical: pair(raw, rendered, canonical),
    robots: pair(raw, rendered, robots),
    h1: pair(raw, rendered, h1s),
    links: {
      raw: rawLinks.size,
      rendered: renderedLinks.size,
      only_rendered: [...onlyRenderedInternal, ...onlyRenderedExternal].slice(0, MAX_ONLY_RENDERED),
      internal: { raw: internalCount(rawLinks), rendered: internalCount(renderedLinks), only_rendered: onlyRenderedInternal.length },
    },
    words: { raw: raw.text.wordCount, rendered: rendered.text.wordCount },
    json_ld_types: pair(raw, rendered, jsonLdTypes),
  };
}

function pair<T>(raw: PageSnapshot, rendered: PageSnapshot, read: (snapshot: PageSnapshot) => T): Pair<T> {
  return { raw: read(raw), rendered: read(rendered) };
}

/** Browsers and search engines use the first title in the head. */
function title(snapshot: PageSnapshot): string | null {
  return snapshot.titles.length === 0 ? null : collapseWhitespace(snapshot.titles[0]);
}

function description(snapshot: PageSnapshot): string | null {
  const meta = snapshot.metas.find((candidate) => candidate.name === 'description');
  return meta === undefined ? null : collapseWhitespace(meta.content ?? '');
}

/** The first canonical link in the head, made absolute so a relative and an absolute spelling compare equal. */
function canonical(snapshot: PageSnapshot): string | null {
  const link = snapshot.linkTags.find((candidate) => candidate.inHead && candidate.rel.includes('canonical'));
  if (link === undefined) return null;
  const href = link.href ?? '';
  return resolveUrl(href, snapshot.baseUrl)?.href ?? href;
}

function robots(snapshot: PageSnapshot): string | null {
  const metas = snapshot.metas.filter((meta) => meta.name === 'robots');
  if (metas.length === 0) return null;
  return metas.flatMap((meta) => robotsDirectives(meta.content ?? '')).join(', ');
}

function h1s(snapshot: PageSnapshot): string[] {
  return snapshot.headings.filter((heading) => heading.level === 1).map((heading) => heading.text);
}

function jsonLdTypes(snapshot: PageSnapshot): string[] {
  const types = snapshot.jsonLd.flatMap((block) => {
    const reading = readJsonLd(block);
    return reading.kind === 'invalid_json' ? [] : reading.types;
  });
  return [...new Set(types)];
}

/** Each distinct link target (no fragment), and whether it is on the page's own site. */
function linkTargets(snapshot: PageSnapshot, site: string | null): Map<string, boolean> {
  const targets = anchorTargets(snapshot);
  const pageWithoutFragment = withoutFragment(snapshot.baseUrl);
  const links = new Map<string, boolean>();
  for (let i = 0; i < snapshot.anchors.length; i++) {
    if (!isWebProtocol(targets.protocols[i]) || targets.jumpsWithinPage(i, pageWithoutFragment)) continue;
    const url = targets.hrefWithoutFragment(i);
    if (url === null || links.has(url)) continue;
    links.set(url, site !== null && hostnameHasSite(targets.hostnames[i], site));
  }
  return links;
}

/** One line of the comparison for people (the report page, `analyze --render`). */
export interface ComparisonRow {
  label: string;
  raw: string;
  rendered: string;
  /** Whether JavaScript changed it. */
  changed: boolean;
}

const NONE = '(none)';

/** The comparison as rows a person reads at a glance: each thing, raw and rendered, and whether it changed. */
export function comparisonRows(comparison: RenderedComparison): ComparisonRow[] {
  const text = (value: string | null) => (value === null ? NONE : value === '' ? '(empty)' : value);
  const list = (values: string[]) => (values.length === 0 ? NONE : values.join(' · '));
  const row = (label: string, raw: string, rendered: string, changed = raw !== rendered) => ({ label, raw, rendered, changed });
  const { links, words } = comparison;
  const linkCount = (all: number, internal: number) => `${all} (${internal} internal)`;
  return [
    row('Title', text(comparison.title.raw), text(comparison.title.rendered)),
    row('Meta description', text(comparison.meta_description.raw), text(comparison.meta_description.rendered)),
    row('Canonical', text(comparison.canonical.raw), text(comparison.canonical.rendered)),
    row('Robots meta', text(comparison.robots.raw), text(comparison.robots.rendered)),
    row('H1', list(comparison.h1.raw), list(comparison.h1.rendered)),
    row(
      'Links',
      linkCount(links.raw, links.internal.raw),
      linkCount(links.rendered, links.internal.rendered),
      links.raw !== links.rendered || links.only_rendered.length > 0,
    ),
    row('Words', String(words.raw), String(words.rendered)),
    row('JSON-LD types', list(comparison.json_ld_types.raw), list(comparison.json_ld_types.rendered)),
  ];
}
