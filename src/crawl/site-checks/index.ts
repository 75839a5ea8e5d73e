// The static registry of site checks, in the order docs/checks.md lists them ("Site checks"), and the
// runner a crawl calls once every page is in. Each check is isolated: one that throws is recorded as
// finding nothing, with `error: "internal error"`, and logged, so the crawl still finishes with the
// other checks' issues.
import type { Importance } from '../../checks/check.ts';
import type { SiteCheckDefinition, StoredSite } from './site-check.ts';
import { brokenLinks } from './broken-links.ts';
import { brokenExternalLinks } from './broken-external-links.ts';
import { redirectedLinks } from './redirected-links.ts';
import { redirectChains } from './redirect-chains.ts';
import { duplicateTitles } from './duplicate-titles.ts';
import { duplicateDescriptions } from './duplicate-descriptions.ts';
import { duplicateContent } from './duplicate-content.ts';
import { canonicalTargets } from './canonical-targets.ts';
import { hreflangReciprocity } from './hreflang-reciprocity.ts';
import { orphanPages } from './orphan-pages.ts';
import { sitemapEntries } from './sitemap-entries.ts';
import { deepPages } from './deep-pages.ts';
import { internalNofollow } from './internal-nofollow.ts';
import { richResultErrors } from './rich-result-errors.ts';

export const siteChecks: readonly SiteCheckDefinition[] = [
  brokenLinks,
  brokenExternalLinks,
  redirectedLinks,
  redirectChains,
  duplicateTitles,
  duplicateDescriptions,
  duplicateContent,
  canonicalTargets,
  hreflangReciprocity,
  orphanPages,
  sitemapEntries,
  deepPages,
  internalNofollow,
  richResultErrors,
];

export interface SiteCheckResult {
  importance: Importance;
  count: number;
  items: unknown[];
  /** Set when the check threw: it then found nothing, which says nothing about the site. */
  error?: 'internal error';
}

export type SiteCheckFailureLogger = (checkId: string, error: unknown) => void;

/** Runs the checks one after another over the stored crawl (`checks`: the registry unless a test gives others). */
export async function runSiteChecks(
  site: StoredSite,
  onCheckFailure: SiteCheckFailureLogger = () => {},
  checks: readonly SiteCheckDefinition[] = siteChecks,
): Promise<Record<string, SiteCheckResult>> {
  const results: Record<string, SiteCheckResult> = {};
  for (const check of checks) {
    try {
      const { count, items } = await check.run(site);
      results[check.id] = { importance: check.importance, count, items };
    } catch (error) {
      onCheckFailure(check.id, error);
      results[check.id] = { importance: check.importance, count: 0, items: [], error: 'internal error' };
    }
  }
  return results;
}
