// The envelope is written as text around items that are JSON already; it must be exactly what
// JSON.stringify makes of the Laravel-style object, whatever the host, path and filters hold.
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { listEnvelopeJson, listEnvelopeParts, type LinkQuery } from './list-envelope.ts';
import type { JsonPage } from '../services/types.ts';

function expectedEnvelope(origin: string, path: string, query: LinkQuery, page: JsonPage, items: unknown[]) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const link = (n: number) => `${origin}${path}?${params.size > 0 ? `${params}&` : ''}page=${n}`;
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage));
  const from = (page.page - 1) * page.perPage + 1;
  return {
    data: items,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page.page > 1 ? link(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
    meta: {
      current_page: page.page,
      from: items.length > 0 ? from : null,
      last_page: lastPage,
      path: `${origin}${path}`,
      per_page: page.perPage,
      to: items.length > 0 ? from + items.length - 1 : null,
      total: page.total,
    },
    status: 200,
  };
}

const CASES = [
  { host: 'api.example.test', query: {}, page: 1, perPage: 100, total: 0, items: [] },
  { host: 'api.example.test:8080', query: { project: 'a.com', result: 'good', sort_by: 'url', sort: 'asc' }, page: 2, perPage: 2, total: 5, items: [{ id: 3 }, { id: 4 }] },
  { host: 'h"q\\x', query: { search: 'quote " back \\ ünï & = + space', search_by: 'url', per_page: 1 }, page: 9, perPage: 1, total: 3, items: [] },
  { host: 'localhost', query: { search: '', project: undefined }, page: 3, perPage: 1, total: 3, items: [{ id: 1, url: 'https://x/"' }] },
];

describe('list envelope', () => {
  it.each(CASES)('is JSON.stringify of the envelope for $host $query page $page', ({ host, query, page, perPage, total, items }) => {
    const request = { protocol: 'https', host, url: `/api/v1/reports?ignored=1` } as FastifyRequest;
    const json = items.map((item) => JSON.stringify(item)).join(',');
    const jsonPage: JsonPage = { items: { count: items.length, json }, total, page, perPage };
    const expected = JSON.stringify(expectedEnvelope(`https://${host}`, '/api/v1/reports', query, jsonPage, items));
    expect(listEnvelopeJson(request, jsonPage, query).toString()).toBe(expected);
    // Items held as bytes of the index: written as parts, the same text.
    const bytes = Buffer.from(json);
    const indexed: JsonPage = {
      ...jsonPage,
      items: { count: items.length, json: { byteLength: bytes.length, partCount: 1, parts: () => [bytes], copyTo: (target, at) => bytes.copy(target, at) } },
    };
    expect(Buffer.concat(listEnvelopeParts(request, indexed, query)!).toString()).toBe(expected);
    expect(listEnvelopeJson(request, indexed, query).toString()).toBe(expected);
  });

  it('leaves items in many ranges to be copied', () => {
    const request = { protocol: 'http', host: 'h', url: '/api/v1/reports' } as FastifyRequest;
    const many = { byteLength: 0, partCount: 9, parts: () => [], copyTo: () => {} };
    expect(listEnvelopeParts(request, { items: { count: 9, json: many }, total: 9, page: 1, perPage: 100 }, {})).toBeUndefined();
  });
});
