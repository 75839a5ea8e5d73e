import { describe, expect, it } from 'vitest';
import { MAX_ALLOWED_ADDRESSES, allowedAddresses, parseAllowedAddresses } from './allowed-addresses.ts';

function entries(raw: string): string[] {
  const parsed = parseAllowedAddresses(raw);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.entries;
}

function problem(raw: string): string {
  const parsed = parseAllowedAddresses(raw);
  if (parsed.ok) throw new Error(`"${raw}" was accepted as ${parsed.entries.join(',')}`);
  return parsed.problem;
}

describe('parseAllowedAddresses', () => {
  it('reads nothing from a blank value', () => {
    expect(entries('')).toEqual([]);
    expect(entries('   ')).toEqual([]);
  });

  it('reads addresses and ranges of both families, each as address/prefix in its short spelling', () => {
    expect(entries(' 127.0.0.1 ,10.0.0.0/8,192.168.4.0/22, ::1, FD00:0:0::/8,fe80::/10,2001:db8::7')).toEqual([
      '127.0.0.1/32',
      '10.0.0.0/8',
      '192.168.4.0/22',
      '::1/128',
      'fd00::/8',
      'fe80::/10',
      '2001:db8::7/128',
    ]);
  });

  it('reads an IPv4-mapped IPv6 address or range as the IPv4 one it is', () => {
    expect(entries('::ffff:127.0.0.1,::ffff:a00:0/104,::ffff:192.168.0.0/112')).toEqual(['127.0.0.1/32', '10.0.0.0/8', '192.168.0.0/16']);
    // A prefix shorter than the mapped block is an IPv6 range like any other.
    expect(entries('::/80')).toEqual(['::/80']);
  });

  it('takes the shortest prefixes but /0, which would allow everything: PAGEGRADE_ALLOW_PRIVATE_URLS says that', () => {
    expect(entries('0.0.0.0/1,::/1,128.0.0.0/1')).toEqual(['0.0.0.0/1', '::/1', '128.0.0.0/1']);
    for (const everything of ['0.0.0.0/0', '::/0', '::ffff:0:0/96']) {
      expect(problem(everything), everything).toBe(`"${everything}" would allow every address; PAGEGRADE_ALLOW_PRIVATE_URLS=1 is the setting for that`);
    }
  });

  it.each([
    ['10.0.0.300', '"10.0.0.300" is not an IPv4 or IPv6 address, nor one with a /prefix'],
    ['localhost', '"localhost" is not an IPv4 or IPv6 address, nor one with a /prefix'],
    ['127.1', '"127.1" is not an IPv4 or IPv6 address, nor one with a /prefix'],
    ['[::1]', '"[::1]" is not an IPv4 or IPv6 address, nor one with a /prefix'],
    ['fe80::1%eth0', '"fe80::1%eth0" is not an IPv4 or IPv6 address, nor one with a /prefix'],
    ['10.0.0.0/8/8', '"10.0.0.0/8/8" is not an IPv4 or IPv6 address, nor one with a /prefix'],
    ['10.0.0.0 /8', '"10.0.0.0 /8" is not an IPv4 or IPv6 address, nor one with a /prefix'],
    ['10.0.0.0/33', '"10.0.0.0/33" has a prefix that is not a number from 1 to 32'],
    ['10.0.0.0/', '"10.0.0.0/" has a prefix that is not a number from 1 to 32'],
    ['10.0.0.0/-8', '"10.0.0.0/-8" has a prefix that is not a number from 1 to 32'],
    ['10.0.0.0/8.5', '"10.0.0.0/8.5" has a prefix that is not a number from 1 to 32'],
    ['fd00::/129', '"fd00::/129" has a prefix that is not a number from 1 to 128'],
    ['10.0.0.1/8', '"10.0.0.1/8" has bits set past its /8 prefix (the range is 10.0.0.0/8)'],
    ['192.168.1.0/16', '"192.168.1.0/16" has bits set past its /16 prefix (the range is 192.168.0.0/16)'],
    ['fd12::1/8', '"fd12::1/8" has bits set past its /8 prefix (the range is fd00::/8)'],
    ['10.0.0.0/8,', 'an entry is empty (two commas in a row, or one at either end)'],
    ['10.0.0.0/8,,::1', 'an entry is empty (two commas in a row, or one at either end)'],
  ])('refuses %s, saying which entry and why', (raw, message) => {
    expect(problem(raw)).toBe(message);
  });

  it('names the first bad entry of a list, and quotes a long one shortened', () => {
    expect(problem('10.0.0.0/8,fd00::/8,intranet.example,10.0.0.1/8')).toBe('"intranet.example" is not an IPv4 or IPv6 address, nor one with a /prefix');
    expect(problem('x'.repeat(500))).toBe(`"${'x'.repeat(60)}..." is not an IPv4 or IPv6 address, nor one with a /prefix`);
  });

  it(`takes at most ${MAX_ALLOWED_ADDRESSES} entries`, () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i}.0/24`).join(',');
    expect(entries(list(MAX_ALLOWED_ADDRESSES))).toHaveLength(MAX_ALLOWED_ADDRESSES);
    expect(problem(list(MAX_ALLOWED_ADDRESSES + 1))).toBe(`it has ${MAX_ALLOWED_ADDRESSES + 1} entries, more than ${MAX_ALLOWED_ADDRESSES}`);
  });
});

describe('allowedAddresses', () => {
  it('matches the addresses inside each range, in any spelling, and no other', () => {
    const allowed = allowedAddresses(entries('127.0.0.1,10.0.0.0/8,fd00:1::/32'));
    for (const ip of ['127.0.0.1', '10.0.0.1', '10.255.255.255', '::ffff:127.0.0.1', '::FFFF:7f00:1', '::ffff:10.1.2.3', 'fd00:1::5', 'FD00:1:0:0::9', '[fd00:1::1]']) {
      expect(allowed.has(ip), ip).toBe(true);
    }
    for (const ip of ['127.0.0.2', '11.0.0.1', '192.168.1.1', '::1', 'fd00:2::1', '64:ff9b::7f00:1', 'not an address']) {
      expect(allowed.has(ip), ip).toBe(false);
    }
  });

  it('matches an IPv4 address against an IPv4-mapped entry as against its IPv4 form', () => {
    const mapped = allowedAddresses(['::ffff:10.0.0.0/104']);
    expect(mapped.has('10.9.8.7')).toBe(true);
    expect(mapped.has('::ffff:10.9.8.7')).toBe(true);
    expect(mapped.has('11.0.0.1')).toBe(false);
  });

  it('allows nothing without entries, keeps the entries sorted for a stable key and refuses a bad one', () => {
    expect(allowedAddresses(undefined).has('10.0.0.1')).toBe(false);
    expect(allowedAddresses([]).entries).toEqual([]);
    expect(allowedAddresses(['fd00::/8', '10.0.0.0/8']).entries).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(allowedAddresses(['10.0.0.1']).entries).toEqual(['10.0.0.1/32']);
    expect(() => allowedAddresses(['10.0.0.1/8'])).toThrow(/bits set past its \/8 prefix/);
  });
});
