// The Laravel-style list envelope: data, absolute links that keep the normalised filters, meta.
import type { FastifyRequest } from 'fastify';
import type { Page } from '../services/types.ts';

/** Query parameters to repeat in every link, already validated and normalised. */
export type LinkQuery = Record<string, string | number | undefined>;

export function listEnvelope<T>(request: FastifyRequest, page: Page<T>, query: LinkQuery) {
  const path = `${request.protocol}://${request.host}${request.url.split('?')[0]}`;
  const meta = listMeta(page, path);
  const lastPage = meta.last_page;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  // An organisation named in the query (docs/organisations.md) is kept by every link.
  if (request.organization && (request.query as Record<string, unknown> | undefined)?.organization !== undefined) {
    params.set('organization', String(request.organization.id));
  }
  const link = (pageNumber: number) => {
    params.set('page', String(pageNumber));
    return `${path}?${params}`;
  };
  return {
    data: page.items,
    links: {
      first: link(1),
      last: link(lastPage),
      // Past the end, "prev" leads back to the last page rather than to another empty one.
      prev: page.page > 1 ? link(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
    meta,
    status: 200 as const,
  };
}

/** Where a page lies in the whole list, as every list's `meta` says it (the API's and MCP's list_reports). */
export function listMeta(page: Page<unknown>, path: string) {
  const from = (page.page - 1) * page.perPage + 1;
  const hasItems = page.items.length > 0;
  return {
    current_page: page.page,
    from: hasItems ? from : null,
    last_page: Math.max(1, Math.ceil(page.total / page.perPage)),
    path,
    per_page: page.perPage,
    to: hasItems ? from + page.items.length - 1 : null,
    total: page.total,
  };
}
