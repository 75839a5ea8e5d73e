import type { LookupAddress } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import { AddressRefusedError, addressPolicy, guardedLookup, policyKey, refusalBeforeLookup, refusedKind } from './address-guard.ts';
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

describe('allowed addresses (PAGEGRADE_ALLOWED_ADDRESSES)', () => {
  const loopbackOne = addressPolicy(testFetchOptions({ allowedAddresses: ['127.0.0.1/32'] }));
  const intranet = addressPolicy(testFetchOptions({ allowedAddresses: ['10.0.0.0/8', 'fd00::/8'] }));

  it('lets an allowed loopback address through and refuses its neighbour', () => {
    expect(refusedKind('127.0.0.1', loopbackOne)).toBeNull();
    expect(refusalBeforeLookup('127.0.0.1', loopbackOne)).toBeNull();
    expect(refusedKind('127.0.0.2', loopbackOne)).toBe('loopback');
    expect(refusalBeforeLookup('127.0.0.2', loopbackOne)?.reason).toMatch(/^127\.0\.0\.2 is a loopback address; /);
    expect(refusedKind('::1', loopbackOne)).toBe('loopback');
  });

  it('lets an allowed private range through; every other refused range stays refused', () => {
    expect(refusedKind('10.20.30.40', intranet)).toBeNull();
    expect(refusedKind('fd12:3456::1', intranet)).toBeNull();
    expect(refusedKind('192.168.1.1', intranet)).toBe('private');
    expect(refusedKind('172.16.0.1', intranet)).toBe('private');
    expect(refusedKind('169.254.169.254', intranet)).toBe('link-local');
    expect(refusedKind('127.0.0.1', intranet)).toBe('loopback');
    expect(refusedKind('93.184.215.14', intranet)).toBeNull();
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address it carries, allowed or not', () => {
    for (const spelling of ['::ffff:127.0.0.1', '::FFFF:7f00:1', '[::ffff:127.0.0.1]']) {
      expect(refusalBeforeLookup(spelling, loopbackOne), spelling).toBeNull();
    }
    expect(refusedKind('::ffff:10.1.1.1', intranet)).toBeNull();
    expect(refusedKind('::ffff:127.0.0.2', loopbackOne)).toBe('loopback');
    expect(refusedKind('::ffff:192.168.1.1', intranet)).toBe('private');
    // A NAT64 address is another address: an IPv4 entry does not allow it.
    expect(refusedKind('64:ff9b::a01:101', intranet)).toBe('private');
  });

  it('checks the addresses DNS answers: a name passes only when every one is allowed', async () => {
    const answering = (addresses: LookupAddress[]) => (_h: string, _o: unknown, callback: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
      callback(null, addresses);
    const lookUp = (host: string, addresses: LookupAddress[]) =>
      new Promise<Error | null>((resolve) => guardedLookup(intranet, answering(addresses))(host, { all: true }, (err) => resolve(err)));
    expect(await lookUp('staging.intranet', [{ address: '10.1.2.3', family: 4 }])).toBeNull();
    const mixed = await lookUp('mixed.intranet', [{ address: '10.1.2.3', family: 4 }, { address: '192.168.1.1', family: 4 }]);
    expect((mixed as AddressRefusedError).reason).toMatch(/^mixed\.intranet resolves to 192\.168\.1\.1, a private address; /);
  });

  it('looks a localhost name up when addresses are allowed, so only what it resolves to decides', async () => {
    expect(refusalBeforeLookup('localhost', loopbackOne)).toBeNull();
    const lookUp = (policy: typeof loopbackOne, addresses: LookupAddress[]) =>
      new Promise<Error | null>((resolve) =>
        guardedLookup(policy, (_h, _o, callback) => callback(null, addresses))('localhost', { all: true }, (err) => resolve(err)),
      );
    expect(await lookUp(loopbackOne, [{ address: '127.0.0.1', family: 4 }])).toBeNull();
    expect(((await lookUp(loopbackOne, [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }])) as AddressRefusedError).reason).toMatch(
      /^localhost resolves to ::1, a loopback address/,
    );
    expect(((await lookUp(intranet, [{ address: '127.0.0.1', family: 4 }])) as AddressRefusedError).reason).toMatch(/^localhost resolves to 127\.0\.0\.1/);
  });

  it('still lets everything through under allowPrivate, and keys each policy by what it allows', () => {
    expect(refusedKind('192.168.1.1', addressPolicy(testFetchOptions({ allowPrivate: true, allowedAddresses: ['10.0.0.0/8'] })))).toBeNull();
    const keys = [refuse, loopbackOne, intranet, addressPolicy(testFetchOptions({ allowedAddresses: ['127.0.0.2/32'] }))].map(policyKey);
    expect(new Set(keys).size).toBe(keys.length);
    // The same ranges in another order or spelling are the same policy (one agent).
    expect(policyKey(addressPolicy(testFetchOptions({ allowedAddresses: ['fd00::/8', '10.0.0.0/8'] })))).toBe(policyKey(intranet));
    expect(policyKey(addressPolicy(testFetchOptions({ allowedAddresses: ['::ffff:127.0.0.1'] })))).toBe(policyKey(loopbackOne));
  });
});
