// Query handling the dashboard lists share.
import type { FastifyRequest } from 'fastify';

/**
 * A filter form sends its "any" choices as empty values (`result=`); to the API's schemas those are
 * invalid values, to a person they mean "no filter". Dropped before validation.
 */
export async function dropEmptyQueryValues(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  for (const [key, value] of Object.entries(query)) if (value === '') delete query[key];
}

/** The notice a redirect asked for by name; unknown names show nothing. */
export function noticeFrom(notices: Record<string, string>, name: string | undefined): string | undefined {
  return name !== undefined && Object.hasOwn(notices, name) ? notices[name] : undefined;
}

/** A list form's sort and paging (its defaults applied) as the services take them. */
export function listWindow<SortKey extends string>(
  filters: { sort_by: SortKey; sort: 'asc' | 'desc'; per_page: number },
  page: number | undefined,
): { sortBy: SortKey; sort: 'asc' | 'desc'; page: number; perPage: number } {
  return { sortBy: filters.sort_by, sort: filters.sort, page: page ?? 1, perPage: filters.per_page };
}
