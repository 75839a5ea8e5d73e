// Where an offending element is in the page, so a person can find it: its 1-based line in the HTML
// as served, and its start tag as written (whitespace folded, cut short). Only the few items a check
// lists are located, so the line index is built lazily, once per page, and dropped with it.
import type { PageText } from '../fetch/page-text.ts';
import type { SourceSpan } from '../parse/page-snapshot.ts';
import { MAX_ERROR_ITEMS } from './check.ts';

export interface Location {
  line: number;
  /** The element's start tag, e.g. `<img src="/logo.png" alt=" ">`; longer ones end with "…". */
  snippet: string;
}

const MAX_SNIPPET_CHARS = 160;

/** The page a check was given (FetchedPage): its HTML, as decoded. */
export interface PageSource {
  html: PageText;
}

/** The offset where each line of a page's HTML starts, worked out on first use; kept only while the page is. */
const lineStartsByPage = new WeakMap<PageSource, number[]>();

function lineStarts(page: PageSource): number[] {
  let starts = lineStartsByPage.get(page);
  if (starts === undefined) {
    starts = [0, ...page.html.lineBreaks()];
    lineStartsByPage.set(page, starts);
  }
  return starts;
}

export function locate(page: PageSource, span: SourceSpan): Location {
  const starts = lineStarts(page);
  // the last line start at or before the tag
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= span.tagStart) low = middle;
    else high = middle - 1;
  }
  const end = Math.min(span.tagEnd, span.tagStart + MAX_SNIPPET_CHARS * 4);
  let snippet = page.html.slice(span.tagStart, Math.max(end, span.tagStart)).replace(/\s+/g, ' ');
  if (snippet.length > MAX_SNIPPET_CHARS || end < span.tagEnd) snippet = `${snippet.slice(0, MAX_SNIPPET_CHARS - 1)}…`;
  return { line: low + 1, snippet };
}

/**
 * One item per distinct `key` (the first element that has it), up to `max`: `{[field]: key, line,
 * snippet}`. Like firstDistinct, `key` is called only until `max` distinct keys are found.
 */
export function firstDistinctLocated<T>(
  items: readonly T[],
  key: (item: T) => string,
  span: (item: T) => SourceSpan,
  field: string,
  page: PageSource,
  max = MAX_ERROR_ITEMS,
): Record<string, unknown>[] {
  const shown = new Map<string, Record<string, unknown>>();
  for (const item of items) {
    if (shown.size >= max) break;
    const shownKey = key(item);
    if (!shown.has(shownKey)) shown.set(shownKey, { [field]: shownKey, ...locate(page, span(item)) });
  }
  return [...shown.values()];
}
