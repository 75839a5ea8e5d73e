// A site check's finding as the crawl's report files name it: where it is (its URL, or the first page
// it concerns) and what it says, in one line. Item shapes are those of src/crawl/site-checks/*; one of
// an unknown shape is described by its fields.
import { siteChecks } from '../../crawl/site-checks/index.ts';
import type { SiteCheckDefinition } from '../../crawl/site-checks/site-check.ts';
import type { Crawl } from '../../services/crawl-view.ts';
import { printable } from '../terminal-text.ts';

/** Pages named in a finding's line; the item's count of them says how many more. */
const PAGES_NAMED = 10;

export const SITE_CHECKS = new Map<string, SiteCheckDefinition>(siteChecks.map((check) => [check.id, check]));

const recordOf = (item: unknown): Record<string, unknown> =>
  typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : {};

/** The finding's URL (`url`, else `page`), or the first of the pages it concerns; null when it names none. */
export function itemLocation(item: unknown): string | null {
  const record = recordOf(item);
  for (const key of ['url', 'page']) if (typeof record[key] === 'string') return record[key];
  const pages = record.pages ?? record.linked_from;
  return Array.isArray(pages) && typeof pages[0] === 'string' ? pages[0] : null;
}

/** The fields that identify a finding from crawl to crawl (docs/crawls.md, "Comparison"). */
const KEY_FIELDS = ['url', 'title', 'description', 'text_hash', 'canonical', 'page', 'alternate', 'lang', 'target', 'type', 'property', 'message'];

/** The finding's key: its identifying fields' values, e.g. "https://x/gone", "https://x/a https://x/de de". */
export function itemKey(item: unknown): string {
  const record = recordOf(item);
  return KEY_FIELDS.flatMap((key) => (typeof record[key] === 'string' ? [record[key]] : [])).join(' ');
}

/** Every field that says something, e.g. "url: https://x/gone; status_code: 404; linked_from: https://x/ (1)". */
export function itemText(item: unknown): string {
  if (typeof item !== 'object' || item === null) return printable(String(item));
  return Object.entries(item as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0))
    .map(([key, value]) => {
      if (!Array.isArray(value)) return `${key}: ${printable(typeof value === 'object' ? JSON.stringify(value) : String(value))}`;
      const named = value.slice(0, PAGES_NAMED).map((entry) => printable(String(entry))).join(', ');
      return `${key}: ${named}${value.length > PAGES_NAMED ? `, and ${value.length - PAGES_NAMED} more` : ''}`;
    })
    .join('; ');
}

/**
 * Why a site check of the catalogue does not apply to this crawl, or null when it does: a check of
 * links to other hosts when they were not checked (external=0).
 */
export function notApplying(checkId: string, crawl: Crawl): string | null {
  if (checkId === 'broken_external_links' && crawl.external === 0) return 'links to other hosts were not checked (--no-external)';
  return null;
}
