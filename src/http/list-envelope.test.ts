import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { listEnvelope } from './list-envelope.ts';

const request = (host: string) => ({ protocol: 'https', host, url: '/api/v1/reports?ignored=1' }) as FastifyRequest;

describe('list envelope', () => {
  it('links every page with the filters kept, the page number last', () => {
    const page = { items: [{ id: 3 }, { id: 4 }], total: 5, page: 2, perPage: 2 };
    const envelope = listEnvelope(request('api.example.test:8080'), page, { project: 'a.com', sort: 'asc', search: '' });
    const base = 'https://api.example.test:8080/api/v1/reports?project=a.com&sort=asc&page=';
    expect(envelope).toEqual({
      data: [{ id: 3 }, { id: 4 }],
      links: { first: `${base}1`, last: `${base}3`, prev: `${base}1`, next: `${base}3` },
      meta: { current_page: 2, from: 3, last_page: 3, path: 'https://api.example.test:8080/api/v1/reports', per_page: 2, to: 4, total: 5 },
      status: 200,
    });
  });

  it('encodes search terms as a form would', () => {
    const envelope = listEnvelope(request('h'), { items: [], total: 0, page: 1, perPage: 100 }, { search: 'a & b=c ü' });
    expect(envelope.links.first).toBe('https://h/api/v1/reports?search=a+%26+b%3Dc+%C3%BC&page=1');
  });

  it('an empty list has one page and no item range', () => {
    const envelope = listEnvelope(request('h'), { items: [], total: 0, page: 1, perPage: 100 }, {});
    expect(envelope.links).toEqual({ first: 'https://h/api/v1/reports?page=1', last: 'https://h/api/v1/reports?page=1', prev: null, next: null });
    expect(envelope.meta).toMatchObject({ from: null, to: null, last_page: 1, total: 0 });
  });

  it('past the end, prev leads to the last page', () => {
    const envelope = listEnvelope(request('h'), { items: [], total: 3, page: 9, perPage: 1 }, {});
    expect(envelope.links.prev).toBe('https://h/api/v1/reports?page=3');
    expect(envelope.links.next).toBeNull();
  });
});
