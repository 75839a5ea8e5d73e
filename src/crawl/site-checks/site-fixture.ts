// Test-only: a stored crawl, as small as a site check test needs, written to a test database. Pages are
// given by path on https://example.com (or by full URL), each a fetched 200 HTML page at depth 1 unless
// it says otherwise; links are written as URLs, so a test reads like the site it builds. Redirect
// chains are rows too: a URL redirecting twice is two rows that redirect.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { storeInlinks } from '../site-links.ts';
import { openStoredSite } from '../site-scan.ts';
import { richResultErrorsColumn } from '../rich-result-column.ts';
import type { StoredSite } from './site-check.ts';
import { insertUser } from '../../repositories/user.repository.ts';

const ORIGIN = 'https://example.com';
const FIXTURE_TIME = '2026-12-02T10:00:00.000Z';

/** A path on the test site as the crawler stores it: absolute. Full URLs pass through. */
export function at(pathOrUrl: string): string {
  return pathOrUrl.startsWith('/') ? `${ORIGIN}${pathOrUrl}` : pathOrUrl;
}

export interface PageSpec {
  /** 'done' (default), 'pending' (found, never fetched) or 'blocked' (a sitemap URL robots.txt disallows) */
  state?: 'done' | 'pending' | 'blocked';
  statusCode?: number | null;
  error?: string | null;
  /** where its redirect points (path or URL) */
  redirectTo?: string | null;
  depth?: number | null;
  inSitemap?: boolean;
  /** an analysed HTML page (default for a 2xx without a redirect) */
  html?: boolean;
  noindex?: boolean;
  canonical?: string | null;
  /** robots.txt disallows its canonical */
  canonicalBlocked?: boolean;
  title?: string | null;
  description?: string | null;
  textHash?: string | null;
  hreflang?: { lang: string; url: string }[];
  score?: number | null;
  /** Pages it links to, by path or URL; each must be a page of the site. */
  links?: string[];
  /** Those of `links` (added to them if missing) that carry rel=nofollow. */
  nofollowLinks?: string[];
  /** its rich-result errors as the crawl stores them, each [type, property, message] */
  richResultErrors?: [string, string, string][];
}

/** A URL found but never fetched (past max_pages or max_depth). */
export const UNFETCHED: PageSpec = { state: 'pending', statusCode: null, html: false };

/** A sitemap URL robots.txt disallows: never fetched. */
export const BLOCKED: PageSpec = { state: 'blocked', statusCode: null, html: false, inSitemap: true };

/** A fetched non-HTML answer with this status (a 404, a 500). */
export function answering(statusCode: number): PageSpec {
  return { statusCode, html: false };
}

/** A page answering `statusCode` (a 301) with a redirect to `target` (path or URL). */
export function redirecting(target: string, statusCode = 301): PageSpec {
  return { statusCode, redirectTo: target, html: false };
}

export interface CrawlFixture {
  startUrl?: string;
  /** the user owning the crawl (made when not given) */
  organizationId?: number;
}

/** Writes the crawl of these pages (keyed by path or URL, in that order) and its links; its inlinks stored. */
export async function siteOf(db: Kysely<Database>, pages: Record<string, PageSpec>, options: CrawlFixture = {}): Promise<StoredSite> {
  const startUrl = at(options.startUrl ?? Object.keys(pages)[0]);
  const organizationId = options.organizationId ?? (await newUser(db));
  const { id: crawlId } = await db
    .insertInto('crawls')
    .values({ organization_id: organizationId, url: startUrl, project: 'example.com', state: 'running', max_pages: 1000, max_depth: 10, use_sitemap: 1, privacy: 0, render: 0, created_at: FIXTURE_TIME })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = new Map<string, number>();
  for (const [key, spec] of Object.entries(pages)) {
    const statusCode = spec.statusCode === undefined ? 200 : spec.statusCode;
    const html = spec.html ?? (spec.redirectTo == null && statusCode !== null && statusCode >= 200 && statusCode < 300);
    const { id } = await db
      .insertInto('crawl_pages')
      .values({
        crawl_id: crawlId,
        url: at(key),
        state: spec.state ?? 'done',
        depth: spec.depth === undefined ? 1 : spec.depth,
        in_sitemap: spec.inSitemap ? 1 : 0,
        status_code: statusCode,
        redirect_target: spec.redirectTo == null ? null : at(spec.redirectTo),
        error: spec.error ?? null,
        html: html ? 1 : 0,
        noindex: spec.noindex ? 1 : 0,
        canonical: spec.canonical ? at(spec.canonical) : null,
        canonical_blocked: spec.canonicalBlocked ? 1 : 0,
        title: spec.title ?? null,
        description: spec.description ?? null,
        text_hash: spec.textHash ?? null,
        hreflang: spec.hreflang ? JSON.stringify(spec.hreflang.map(({ lang, url }) => ({ lang, url: at(url) }))) : null,
        score: spec.score ?? null,
        rich_result_errors: richResultErrorsColumn((spec.richResultErrors ?? []).map(([type, property, message]) => ({ type, property, message }))),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(at(key), id);
  }
  const idOf = (link: string) => {
    const id = ids.get(at(link));
    if (id === undefined) throw new Error(`siteOf: ${link} is linked to but is not a page of the site`);
    return id;
  };
  for (const [key, spec] of Object.entries(pages)) {
    const nofollow = new Set((spec.nofollowLinks ?? []).map(idOf));
    const targets = new Set([...(spec.links ?? []), ...(spec.nofollowLinks ?? [])].map(idOf));
    if (targets.size === 0) continue;
    await db
      .insertInto('crawl_links')
      .values([...targets].map((to) => ({ crawl_id: crawlId, to_id: to, from_id: idOf(key), nofollow: nofollow.has(to) ? 1 : 0 })))
      .execute();
  }
  const site = await openStoredSite(db, crawlId, startUrl);
  await storeInlinks(site);
  return site;
}

/** A new account's personal organisation, to own the fixture's crawl. */
async function newUser(db: Kysely<Database>): Promise<number> {
  const email = `site-fixture-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  return (await insertUser(db, { email, is_admin: 0, created_at: FIXTURE_TIME })).organization_id;
}
