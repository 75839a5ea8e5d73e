import dns, { type LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveForBrowser } from './proxy-dns.ts';

type Answer = (hostname: string) => dns.RecordWithTtl[] | NodeJS.ErrnoException;

/** c-ares answering from `answer`, counting the queries and how many were in flight at most. */
function fakeResolver(answer: Answer, delayMs = 5) {
  const seen = { queries: [] as string[], inFlight: 0, mostInFlight: 0 };
  for (const method of ['resolve4', 'resolve6'] as const) {
    vi.spyOn(dns.Resolver.prototype, method).mockImplementation(function (hostname: string, ...rest: unknown[]) {
      const callback = rest.at(-1) as (error: NodeJS.ErrnoException | null, records: dns.RecordWithTtl[]) => void;
      seen.queries.push(`${method}:${hostname}`);
      seen.inFlight += 1;
      seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
      setTimeout(() => {
        seen.inFlight -= 1;
        const result = method === 'resolve4' ? answer(hostname) : Object.assign(new Error('no AAAA'), { code: 'ENODATA' });
        if (result instanceof Error) callback(result, []);
        else callback(null, result);
      }, delayMs);
    } as never);
  }
  return seen;
}

const resolve = (hostname: string, family: 0 | 4 | 6 = 0) =>
  new Promise<{ error: NodeJS.ErrnoException | null; addresses: LookupAddress[] }>((done) =>
    resolveForBrowser(hostname, { all: true, family }, (error, addresses) => done({ error, addresses })),
  );

afterEach(() => vi.restoreAllMocks());

describe('resolveForBrowser', () => {
  it('answers with every address of the name, then from its cache', async () => {
    const seen = fakeResolver((hostname) => [{ address: hostname === 'a.example' ? '203.0.113.7' : '203.0.113.8', ttl: 60 }]);
    expect(await resolve('a.example')).toEqual({ error: null, addresses: [{ address: '203.0.113.7', family: 4 }] });
    expect(await resolve('A.example')).toEqual({ error: null, addresses: [{ address: '203.0.113.7', family: 4 }] });
    expect(seen.queries).toEqual(['resolve4:a.example', 'resolve6:a.example']);
  });

  it('says a name does not exist as dns.lookup would, and remembers that too', async () => {
    const seen = fakeResolver(() => Object.assign(new Error('queryA ENOTFOUND'), { code: 'ENOTFOUND' }));
    expect((await resolve('nowhere.example')).error?.code).toBe('ENOTFOUND');
    expect((await resolve('nowhere.example')).error?.code).toBe('ENOTFOUND');
    expect(seen.queries.filter((query) => query.endsWith('nowhere.example'))).toHaveLength(2);
  });

  it('asks a few names at a time, however many a page names at once', async () => {
    const seen = fakeResolver(() => [{ address: '203.0.113.9', ttl: 60 }]);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => resolve(`host${i}.burst.example`)));
    expect(answers.every((answer) => answer.error === null)).toBe(true);
    expect(seen.mostInFlight).toBeLessThanOrEqual(8);
  });

  it('answers names of /etc/hosts from it, as getaddrinfo does (c-ares does not read it)', async () => {
    const seen = fakeResolver(() => Object.assign(new Error('queryA ENOTFOUND'), { code: 'ENOTFOUND' }));
    expect(await resolve('localhost', 4)).toEqual({ error: null, addresses: [{ address: '127.0.0.1', family: 4 }] });
    expect(seen.queries).toEqual([]);
  });
});
