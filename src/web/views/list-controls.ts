// The sort, order and page-size selects that end every dashboard list's filter form, with its Apply and
// Reset, and the result filter and sorted caption lists share. Their names are the list API's query
// parameters, so the form's GET lands on the same list, re-sorted.
import type { Verdict } from '../../analysis/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { VERDICT_NAMES } from './format.ts';

/** Page sizes offered; the list API accepts any per_page up to 100. */
const PAGE_SIZES = [10, 25, 50, 100] as const;

export function selectOption(value: string | number, label: string, selected: boolean): SafeHtml {
  return html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
}

export interface ListSortFilters<SortKey extends string> {
  sort_by: SortKey;
  sort: 'asc' | 'desc';
  per_page: number;
}

/** The three fields, each in a `.field`; `sortKeys` pairs a sort_by value with its label, in order. */
export function listControls<SortKey extends string>(
  sortKeys: readonly (readonly [SortKey, string])[],
  filters: ListSortFilters<SortKey>,
): SafeHtml {
  return html`<div class="field">
    <label for="sort_by">Sort by</label>
    <select id="sort_by" name="sort_by">${sortKeys.map(([key, label]) => selectOption(key, label, key === filters.sort_by))}</select>
  </div>
  <div class="field">
    <label for="sort">Order</label>
    <select id="sort" name="sort">
      ${selectOption('desc', 'Descending', filters.sort === 'desc')}
      ${selectOption('asc', 'Ascending', filters.sort === 'asc')}
    </select>
  </div>
  <div class="field">
    <label for="per_page">Per page</label>
    <select id="per_page" name="per_page">${PAGE_SIZES.map((size) => selectOption(size, String(size), size === filters.per_page))}</select>
  </div>`;
}

/** The result filter: any verdict, or one. */
export function resultSelect(selected: Verdict | undefined): SafeHtml {
  return html`<div class="field">
    <label for="result">Result</label>
    <select id="result" name="result">
      ${selectOption('', 'Any result', !selected)}
      ${(['good', 'decent', 'bad'] as const).map((verdict) => selectOption(verdict, VERDICT_NAMES[verdict], verdict === selected))}
    </select>
  </div>`;
}

/** The end of a filter form: Apply, and Reset back to `resetHref`, the list unfiltered. */
export function filterActions(resetHref: string): SafeHtml {
  return html`<div class="filters-actions">
    <button type="submit" class="button button--primary">Apply</button>
    <a class="button button--quiet" href="${resetHref}">Reset</a>
  </div>`;
}

/** A list table's caption for screen readers: "Reports, ascending by Score". */
export function sortedCaption<SortKey extends string>(
  noun: string,
  sortKeys: readonly (readonly [SortKey, string])[],
  filters: Pick<ListSortFilters<SortKey>, 'sort_by' | 'sort'>,
): SafeHtml {
  const by = sortKeys.find(([key]) => key === filters.sort_by)?.[1] ?? filters.sort_by;
  return html`<caption class="visually-hidden">${noun}, ${filters.sort === 'asc' ? 'ascending' : 'descending'} by ${by}</caption>`;
}
