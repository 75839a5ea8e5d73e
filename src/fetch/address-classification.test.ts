import { describe, expect, it } from 'vitest';
import { canonicalAddress, classifyAddress } from './address-classification.ts';

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.200', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ])('IPv4 %s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255', '11.0.0.1'])(
    'IPv4 %s is public',
    (ip) => {
      expect(classifyAddress(ip)).toBeNull();
    },
  );

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['100::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378::1', 'reserved'], // Teredo, inside 2001::/23
    ['3fff::1', 'reserved'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'reserved'], // deprecated site-local: outside 2000::/3
    ['::7f00:1', 'reserved'], // IPv4-compatible, deprecated
    ['64:ff9b:1::1', 'private'],
  ])('IPv6 %s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888'])('IPv6 %s is public', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['[::ffff:192.168.0.1]', 'private'],
    ['64:ff9b::10.0.0.1', 'private'], // NAT64 of a private address
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:c0a8:0101::1', 'private'], // 6to4 of 192.168.1.1
  ])('an IPv4 address embedded in IPv6 (%s) is classified as that IPv4 address: %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each(['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])('%s embeds a public IPv4 address', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it('does not classify host names', () => {
    expect(classifyAddress('example.com')).toBeNull();
  });
});

describe('WHATWG URL spellings of loopback', () => {
  it.each(['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://127.1/', 'http://0x7f000001/', 'http://127.0.0.1./'])(
    '%s is a loopback address once parsed',
    (url) => {
      const hostname = new URL(url).hostname;
      expect(classifyAddress(hostname.replace(/\.$/, ''))).toBe('loopback');
    },
  );

  it('http://[::ffff:127.0.0.1]/ is loopback once parsed', () => {
    expect(classifyAddress(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe('loopback');
  });
});

describe('canonicalAddress', () => {
  it('gives one spelling per address', () => {
    expect(canonicalAddress('::ffff:7f00:2')).toBe(canonicalAddress('::FFFF:127.0.0.2'));
    expect(canonicalAddress('::1')).toBe('0000:0000:0000:0000:0000:0000:0000:0001');
    expect(canonicalAddress('127.0.0.2')).toBe('127.0.0.2');
    expect(canonicalAddress('not an address')).toBeNull();
  });
});
