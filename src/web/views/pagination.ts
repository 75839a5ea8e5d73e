// "Showing 26–50 of 61" with previous and next links that keep the filters, for any list page.
import type { Page } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatNumber } from './format.ts';

export type ListQuery = Record<string, string | number | undefined>;

/** The list's path with the query, leaving out empty values. */
export function listHref(path: string, query: ListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** `fragment`: an element id the links jump to, for a list below other content. */
export function pagination(path: string, query: ListQuery, page: Page<unknown>, noun: string, fragment?: string): SafeHtml {
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage));
  const from = (page.page - 1) * page.perPage + 1;
  const to = from + page.items.length - 1;
  const range = page.items.length > 0 ? `Showing ${formatNumber(from)}–${formatNumber(to)} of ${formatNumber(page.total)} ${noun}` : `${formatNumber(page.total)} ${noun} in all`;
  const link = (target: number, label: string, rel: string) =>
    html`<a class="button" rel="${rel}" href="${listHref(path, { ...query, page: target })}${fragment ? `#${fragment}` : ''}">${label}</a>`;
  return html`<nav class="pagination" aria-label="Pages">
  <p>${range} · page ${formatNumber(Math.min(page.page, lastPage))} of ${formatNumber(lastPage)}</p>
  <p class="pagination-links">
    ${page.page > 1 ? link(Math.min(page.page - 1, lastPage), '← Previous', 'prev') : ''}
    ${page.page < lastPage ? link(page.page + 1, 'Next →', 'next') : ''}
  </p>
</nav>`;
}
