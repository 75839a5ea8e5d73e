// Whether the page was finally served over TLS; several checks only apply to https pages.
import type { FetchedPage } from '../../fetch/types.ts';

export function isHttpsPage(page: FetchedPage): boolean {
  return URL.canParse(page.finalUrl) && new URL(page.finalUrl).protocol === 'https:';
}
