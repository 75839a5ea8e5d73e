// rich_result_errors (docs/structured-data.md, "Crawls"): the rich-result errors of the crawl's pages,
// one item per (type, property, message) with the pages that have it, so a template's mistake shows as
// one finding on 5,000 pages rather than 5,000 findings. Grouped as the duplicate checks group pages,
// over a scratch table in bounded steps (site-groups.ts), each page's stored triples expanded in SQL.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { withPageGroups } from '../site-groups.ts';
import { isPostgres } from '../site-scan.ts';
import { richResultErrorOfTriple } from '../rich-result-column.ts';
import type { RichResultErrorFact } from '../../analysis/rich-result-facts.ts';
import { defineSiteCheck, type SiteCheckOutcome, type StoredSite } from './site-check.ts';
import { compareText, KeptFindings } from './site-outcome.ts';

/** Pages named per item: a problem is usually a template's, and its first pages show which. */
const PAGES_NAMED = 100;

interface ErrorGroup {
  error: RichResultErrorFact;
  /** the triple's JSON text, the group's key in the scratch table */
  value: string;
  count: number;
}

/** The most widespread first, then by type and property (and message, so the order is total). */
const byPageCountThenTriple = (a: ErrorGroup, b: ErrorGroup): number =>
  b.count - a.count || compareText(a.error.type, b.error.type) || compareText(a.error.property, b.error.property) || compareText(a.error.message, b.error.message);

/** Each stored triple of an analysed page as a row: the array's elements, each as its JSON text. */
function expandedTriples(site: StoredSite): { join: RawBuilder<unknown>; value: RawBuilder<string | null> } {
  if (isPostgres(site.db)) return { join: sql`, jsonb_array_elements(crawl_pages.rich_result_errors::jsonb) as listed(value)`, value: sql<string>`listed.value::text` };
  return { join: sql`, json_each(crawl_pages.rich_result_errors) as listed`, value: sql<string>`listed.value` };
}

const WITH_ERRORS = sql<SqlBool>`crawl_pages.html = 1 and crawl_pages.rich_result_errors is not null`;

async function richResultErrorGroups(site: StoredSite): Promise<SiteCheckOutcome> {
  const { join, value } = expandedTriples(site);
  return withPageGroups(site, { value, where: WITH_ERRORS, join }, async (groups) => {
    const kept = new KeptFindings<ErrorGroup>(byPageCountThenTriple);
    for await (const step of groups.groups(1)) {
      for (const group of step) {
        const error = richResultErrorOfTriple(group.value);
        if (error !== null) kept.add({ error, value: group.value, count: group.count });
      }
    }
    const items = [];
    for (const { error, value: key, count } of kept.first()) items.push({ ...error, pages: await groups.firstUrls(key, PAGES_NAMED), page_count: count });
    return { count: kept.count, items };
  });
}

export const richResultErrors = defineSiteCheck({
  id: 'rich_result_errors',
  importance: 'medium',
  title: 'No page has rich-result errors',
  failureTitle: 'Pages have structured data Google cannot use for rich results',
  description:
    'Google shows a rich result (stars, prices, breadcrumbs, event dates) only for structured data that has every property its feature requires, with valid values; the same error on many pages usually comes from one template.',
  howToFix:
    'Fix each error where the markup is made, usually the page template: add the required property or correct its value, then check one of the listed pages\' reports for what remains.',
  run: richResultErrorGroups,
});
