import type { LookupAddress } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import { AddressRefusedError, addressPolicy, guardedLookup, refusalBeforeLookup, refusedKind } from './address-guard.ts';
import type { FetchOptions } from './options.ts';

function testFetchOptions(overrides: Partial<FetchOptions>): FetchOptions {
  return { timeoutMs: 1000, maxBytes: 1000, userAgent: 'test', allowPrivate: false, ...overrides };
}

const refuse = addressPolicy(testFetchOptions({ allowPrivate: false }));
const allow = addressPolicy(testFetchOptions({ allowPrivate: true }));
const seam = addressPolicy(testFetchOptions({ allowPrivate: false, publicAddressesForTests: ['127.0.0.2', '::ffff:7f00:3'] }));

describe('refusedKind', () => {
  it('refuses non-public addresses unless private targets are allowed', () => {
    expect(refusedKind('10.0.0.5', refuse)).toBe('private');
    expect(refusedKind('10.0.0.5', allow)).toBeNull();
    expect(refusedKind('93.184.215.14', refuse)).toBeNull();
  });

  it('treats the test seam addresses as public, in any spelling, and nothing else', () => {
    expect(refusedKind('127.0.0.2', seam)).toBeNull();
    expect(refusedKind('::ffff:127.0.0.3', seam)).toBeNull();
    expect(refusedKind('127.0.0.1', seam)).toBe('loopback');
  });
});

describe('refusalBeforeLookup', () => {
  it('refuses IP literals that are not public, with the reason', () => {
    expect(refusalBeforeLookup('127.0.0.1', refuse)?.reason).toBe(
      '127.0.0.1 is a loopback address; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).',
    );
    expect(refusalBeforeLookup('[::1]', refuse)?.reason).toMatch(/^::1 is a loopback address/);
    expect(refusalBeforeLookup('::ffff:7f00:1', refuse)).toBeInstanceOf(AddressRefusedError);
    expect(refusalBeforeLookup('169.254.169.254', refuse)?.reason).toMatch(/link-local/);
  });

  it('refuses localhost names without asking DNS', () => {
    for (const name of ['localhost', 'LOCALHOST', 'localhost.', 'app.localhost', 'a.b.localhost']) {
      expect(refusalBeforeLookup(name, refuse)?.reason).toBe(`${name} is this machine; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).`);
    }
  });

  it('lets public literals, other names and everything under allowPrivate through', () => {
    expect(refusalBeforeLookup('8.8.8.8', refuse)).toBeNull();
    expect(refusalBeforeLookup('example.com', refuse)).toBeNull();
    expect(refusalBeforeLookup('notlocalhost', refuse)).toBeNull();
    expect(refusalBeforeLookup('127.0.0.1', allow)).toBeNull();
    expect(refusalBeforeLookup('localhost', allow)).toBeNull();
    expect(refusalBeforeLookup('127.0.0.2', seam)).toBeNull();
  });
});

describe('guardedLookup', () => {
  function resolverAnswering(addresses: LookupAddress[]) {
    return vi.fn((_host: string, _options: unknown, callback: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
      callback(null, addresses),
    );
  }

  function lookUp(lookup: ReturnType<typeof guardedLookup>, host: string, all: boolean) {
    return new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
      lookup(host, { all }, (err, address, family) => resolve({ err, address, family })),
    );
  }

  it('refuses a name that resolves to a private address, naming both', async () => {
    const lookup = guardedLookup(refuse, resolverAnswering([{ address: '10.0.0.5', family: 4 }]));
    const { err } = await lookUp(lookup, 'example.com', true);
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect((err as AddressRefusedError).reason).toBe(
      'example.com resolves to 10.0.0.5, a private address; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).',
    );
  });

  it('refuses a name when any of its addresses is private', async () => {
    const resolver = resolverAnswering([
      { address: '93.184.215.14', family: 4 },
      { address: '::1', family: 6 },
    ]);
    const { err } = await lookUp(guardedLookup(refuse, resolver), 'mixed.example', true);
    expect((err as AddressRefusedError).reason).toMatch(/resolves to ::1, a loopback address/);
  });

  it('hands public addresses to the socket in the shape it asked for', async () => {
    const addresses = [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ];
    const all = await lookUp(guardedLookup(refuse, resolverAnswering(addresses)), 'example.com', true);
    expect(all).toEqual({ err: null, address: addresses, family: undefined });
    const one = await lookUp(guardedLookup(refuse, resolverAnswering(addresses)), 'example.com', false);
    expect(one).toEqual({ err: null, address: '93.184.215.14', family: 4 });
  });

  it('passes DNS errors through', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND' });
    const resolver = vi.fn((_h: string, _o: unknown, callback: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
      callback(failure, []),
    );
    const { err } = await lookUp(guardedLookup(refuse, resolver), 'nope.invalid', true);
    expect(err).toBe(failure);
  });

  it('refuses localhost without resolving it', async () => {
    const resolver = resolverAnswering([{ address: '93.184.215.14', family: 4 }]);
    const { err } = await lookUp(guardedLookup(refuse, resolver), 'localhost', true);
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect(resolver).not.toHaveBeenCalled();
  });

  it('accepts seam addresses', async () => {
    const { err } = await lookUp(guardedLookup(seam, resolverAnswering([{ address: '127.0.0.2', family: 4 }])), 'test.example', true);
    expect(err).toBeNull();
  });
});
