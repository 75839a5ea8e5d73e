// Which IP addresses are not on the public internet. pagegrade refuses to fetch from these unless the
// operator allows private targets, so a report cannot be used to probe the operator's own network.
import { isIPv4, isIPv6 } from 'node:net';

export type AddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'CGNAT'
  | 'multicast'
  | 'reserved';

interface Range {
  bytes: Uint8Array;
  bits: number;
  kind: AddressKind;
}

function range(cidr: string, kind: AddressKind): Range {
  const [address, bits] = cidr.split('/');
  const bytes = addressBytes(address);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, bits: Number(bits), kind };
}

const IPV4_RANGES: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'CGNAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  range('192.0.2.0/24', 'reserved'), // documentation
  range('192.88.99.0/24', 'reserved'), // 6to4 relay anycast
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'reserved'), // benchmarking
  range('198.51.100.0/24', 'reserved'), // documentation
  range('203.0.113.0/24', 'reserved'), // documentation
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'), // includes the broadcast address 255.255.255.255
];

/** IPv6 ranges that carry an IPv4 address in their last 32 bits (or bits 16-47 for 6to4). */
const IPV4_MAPPED = range('::ffff:0:0/96', 'reserved');
const NAT64 = range('64:ff9b::/96', 'reserved');
const SIX_TO_FOUR = range('2002::/16', 'reserved');

const IPV6_RANGES: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('64:ff9b:1::/48', 'private'), // local-use NAT64
  range('100::/64', 'reserved'), // discard-only
  range('2001::/23', 'reserved'), // IETF protocol assignments (Teredo, ORCHID, ...)
  range('2001:db8::/32', 'reserved'), // documentation
  range('3fff::/20', 'reserved'), // documentation
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('ff00::/8', 'multicast'),
];

/** Only 2000::/3 is allocated as global unicast; everything else in IPv6 is not a public web host. */
const IPV6_GLOBAL_UNICAST = range('2000::/3', 'reserved');

/**
 * The kind of non-public address `ip` is, or null for a public address (or a string that is not an
 * IP address at all).
 */
export function classifyAddress(ip: string): AddressKind | null {
  const bytes = addressBytes(ip);
  if (!bytes) return null;
  return bytes.length === 4 ? classifyIPv4(bytes) : classifyIPv6(bytes);
}

function classifyIPv4(bytes: Uint8Array): AddressKind | null {
  return IPV4_RANGES.find((r) => inRange(bytes, r))?.kind ?? null;
}

function classifyIPv6(bytes: Uint8Array): AddressKind | null {
  if (inRange(bytes, IPV4_MAPPED) || inRange(bytes, NAT64)) return classifyIPv4(bytes.subarray(12, 16));
  if (inRange(bytes, SIX_TO_FOUR)) return classifyIPv4(bytes.subarray(2, 6));
  const kind = IPV6_RANGES.find((r) => inRange(bytes, r))?.kind;
  if (kind) return kind;
  return inRange(bytes, IPV6_GLOBAL_UNICAST) ? null : 'reserved';
}

function inRange(bytes: Uint8Array, r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  const whole = r.bits >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== r.bytes[i]) return false;
  const rest = r.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[whole] & mask) === (r.bytes[whole] & mask);
}

/**
 * One spelling per address, so that '::ffff:7f00:2' and '::FFFF:127.0.0.2' compare equal. IPv4
 * addresses stay dotted; IPv6 ones become eight full hex groups. null when `ip` is not an address.
 */
export function canonicalAddress(ip: string): string | null {
  const bytes = addressBytes(ip);
  if (!bytes) return null;
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16).padStart(4, '0'));
  return groups.join(':');
}

/** 4 bytes for IPv4, 16 for IPv6 (a zone id such as "%eth0" is ignored), null otherwise. */
export function addressBytes(ip: string): Uint8Array | null {
  const unbracketed = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const address = unbracketed.split('%')[0];
  if (isIPv4(address)) return Uint8Array.from(address.split('.').map(Number));
  if (isIPv6(address)) return ipv6Bytes(address);
  return null;
}

/** Parses an address `isIPv6` accepted: hex groups, at most one "::", maybe a dotted IPv4 tail. */
function ipv6Bytes(address: string): Uint8Array {
  const gap = address.indexOf('::');
  const left = ipv6Words(gap === -1 ? address : address.slice(0, gap));
  const right = gap === -1 ? [] : ipv6Words(address.slice(gap + 2));
  const words = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    bytes[2 * i] = word >> 8;
    bytes[2 * i + 1] = word & 0xff;
  });
  return bytes;
}

function ipv6Words(groups: string): number[] {
  if (groups === '') return [];
  return groups.split(':').flatMap((group) => {
    if (!group.includes('.')) return [parseInt(group, 16)];
    const [a, b, c, d] = group.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}
