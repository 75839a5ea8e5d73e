// The sort, order and page-size selects that end every dashboard list's filter form. Their names are
// the list API's query parameters, so the form's GET lands on the same list, re-sorted.
import { html, type SafeHtml } from '../html.ts';

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
