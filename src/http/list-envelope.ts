// The Laravel-style list envelope: data, absolute links that keep the normalised filters, meta.
import type { FastifyRequest } from 'fastify';
import type { JsonPage } from '../services/types.ts';

/** Query parameters to repeat in every link, already validated and normalised. */
export type LinkQuery = Record<string, string | number | undefined>;

const DATA_OPEN = Buffer.from('{"data":[');

/**
 * Items in at most this many byte ranges of the list index are written from it as they are; in more,
 * a write for each costs more than copying them into one answer (each range is a write of its own
 * through the response and the socket's queue, about a microsecond).
 */
const MAX_UNCOPIED_PARTS = 8;

function rest(request: FastifyRequest, page: JsonPage, query: LinkQuery): string {
  return `],${JSON.stringify(pagination(request, page, query)).slice(1)}`;
}

/**
 * The answer as byte parts to write in order (send-json-text.ts sendJsonParts), the items as views of
 * the list index: when its items are in a few ranges of the index; otherwise undefined.
 */
export function listEnvelopeParts(request: FastifyRequest, page: JsonPage, query: LinkQuery): Buffer[] | undefined {
  const items = page.items.json;
  if (typeof items === 'string' || Buffer.isBuffer(items) || items.partCount > MAX_UNCOPIED_PARTS) return undefined;
  return [DATA_OPEN, ...items.parts(), Buffer.from(rest(request, page, query))];
}

/** The envelope as UTF-8 bytes around items that are JSON already (sent without parsing them). */
export function listEnvelopeJson(request: FastifyRequest, page: JsonPage, query: LinkQuery): Buffer {
  const tail = rest(request, page, query);
  const items = page.items.json;
  if (typeof items === 'string') return Buffer.from(`{"data":[${items}${tail}`);
  if (Buffer.isBuffer(items)) return Buffer.concat([DATA_OPEN, items, Buffer.from(tail)]);
  // Bytes held by the list index are copied once, straight into the answer.
  const body = Buffer.allocUnsafe(DATA_OPEN.length + items.byteLength + Buffer.byteLength(tail));
  DATA_OPEN.copy(body, 0);
  items.copyTo(body, DATA_OPEN.length);
  body.write(tail, DATA_OPEN.length + items.byteLength);
  return body;
}

function pagination(request: FastifyRequest, page: JsonPage, query: LinkQuery) {
  const path = `${request.protocol}://${request.host}${request.url.split('?')[0]}`;
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage));
  // The other parameters are the same in every link: encoded once, as URLSearchParams would (the page last).
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const linkStart = `${path}?${params.size > 0 ? `${params.toString()}&` : ''}page=`;
  const link = (pageNumber: number) => `${linkStart}${pageNumber}`;
  const from = (page.page - 1) * page.perPage + 1;
  const hasItems = page.items.count > 0;
  return {
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page.page > 1 ? link(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
    meta: {
      current_page: page.page,
      from: hasItems ? from : null,
      last_page: lastPage,
      path,
      per_page: page.perPage,
      to: hasItems ? from + page.items.count - 1 : null,
      total: page.total,
    },
    status: 200 as const,
  };
}
