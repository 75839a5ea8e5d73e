// How crawl_pages.rich_result_errors holds a page's rich-result errors (rich-result-facts.ts): a JSON
// array of [type, property, message] triples, keys left out to keep a page's bytes few, and null for a
// page without any, as most are, so they cost nothing. The site check expands the array in SQL
// (rich-result-errors.ts), a triple's JSON text standing for the triple.
import type { RichResultErrorFact } from '../analysis/rich-result-facts.ts';

export function richResultErrorsColumn(errors: readonly RichResultErrorFact[]): string | null {
  return errors.length === 0 ? null : JSON.stringify(errors.map(({ type, property, message }) => [type, property, message]));
}

/** One triple as its JSON text (either dialect's spelling of it); null when it is not one. */
export function richResultErrorOfTriple(json: string): RichResultErrorFact | null {
  const triple: unknown = JSON.parse(json);
  if (!Array.isArray(triple) || triple.length !== 3 || !triple.every((part) => typeof part === 'string')) return null;
  const [type, property, message] = triple as string[];
  return { type, property, message };
}
