// PAGEGRADE_ALLOWED_ADDRESSES: the addresses and CIDR ranges an operator lets the address guard pass
// although they are not public (an intranet's staging server). Read once at start (config.ts); matched
// with node:net's BlockList, which also matches an IPv4-mapped IPv6 address (::ffff:10.0.0.1) against
// an IPv4 range and back, so every spelling of one address gets the same answer. Other IPv6 forms
// that carry an IPv4 address (NAT64, 6to4) are other addresses, allowed only when listed themselves.
import { BlockList, isIP } from 'node:net';
import { addressBytes, canonicalAddress } from './address-classification.ts';

/** Enough for any intranet's ranges; a longer list is more likely a pasted file than a plan. */
export const MAX_ALLOWED_ADDRESSES = 100;

/** An entry is quoted in an error at most this long: an address with its prefix is at most 43 characters. */
const MAX_QUOTED_CHARS = 60;

type AllowedAddressesParse = { ok: true; entries: string[] } | { ok: false; problem: string };

/**
 * The comma-separated entries of `raw`, each as `address/prefix` with the network address in its
 * usual short spelling (10.0.0.0/8, fd00::/8, 127.0.0.1/32; an IPv4-mapped range as its IPv4 range),
 * or what is wrong with the first bad entry. Blank: none.
 */
export function parseAllowedAddresses(raw: string): AllowedAddressesParse {
  const trimmed = raw.trim();
  if (trimmed === '') return { ok: true, entries: [] };
  const parts = trimmed.split(',').map((part) => part.trim());
  if (parts.length > MAX_ALLOWED_ADDRESSES) {
    return { ok: false, problem: `it has ${parts.length} entries, more than ${MAX_ALLOWED_ADDRESSES}` };
  }
  const entries: string[] = [];
  for (const part of parts) {
    const entry = parseEntry(part);
    if (!entry.ok) return entry;
    entries.push(entry.text);
  }
  return { ok: true, entries };
}

type EntryParse = { ok: true; text: string; address: string; prefix: number; family: 'ipv4' | 'ipv6' } | { ok: false; problem: string };

function parseEntry(entry: string): EntryParse {
  if (entry === '') return { ok: false, problem: 'an entry is empty (two commas in a row, or one at either end)' };
  const quoted = `"${entry.length > MAX_QUOTED_CHARS ? `${entry.slice(0, MAX_QUOTED_CHARS)}...` : entry}"`;
  const [address, prefixText, ...more] = entry.split('/');
  // A zone id (fe80::1%eth0) names an interface of this machine, not an address of a host.
  const family = address.includes('%') || more.length > 0 ? 0 : isIP(address);
  if (family === 0) return { ok: false, problem: `${quoted} is not an IPv4 or IPv6 address, nor one with a /prefix` };
  const bits = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) {
    return { ok: false, problem: `${quoted} has a prefix that is not a number from 1 to ${bits}` };
  }
  let bytes = addressBytes(address) as Uint8Array;
  let prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return { ok: false, problem: `${quoted} has a prefix that is not a number from 1 to ${bits}` };
  if (bytes.length === 16 && prefix >= 96 && isIPv4Mapped(bytes)) {
    bytes = bytes.slice(12);
    prefix -= 96;
  }
  if (prefix === 0) {
    return { ok: false, problem: `${quoted} would allow every address; PAGEGRADE_ALLOW_PRIVATE_URLS=1 is the setting for that` };
  }
  const network = masked(bytes, prefix);
  const text = `${spell(network)}/${prefix}`;
  if (!network.every((byte, i) => byte === bytes[i])) {
    return { ok: false, problem: `${quoted} has bits set past its /${prefix} prefix (the range is ${text})` };
  }
  return { ok: true, text, address: spell(network), prefix, family: network.length === 4 ? 'ipv4' : 'ipv6' };
}

function isIPv4Mapped(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

function masked(bytes: Uint8Array, prefix: number): Uint8Array {
  return bytes.map((byte, i) => {
    const kept = Math.min(8, Math.max(0, prefix - 8 * i));
    return byte & ((0xff << (8 - kept)) & 0xff);
  });
}

/** Dotted IPv4, or IPv6 as the URL standard writes it (lowercase, longest zero run as ::). */
function spell(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/** What the guard asks: is this address one the operator allowed? */
export interface AllowedAddresses {
  /** The entries as parseAllowedAddresses spells them (for policyKey). */
  readonly entries: readonly string[];
  has(ip: string): boolean;
}

const NONE: AllowedAddresses = { entries: [], has: () => false };

/** Built once per list: config.ts's one array is handed to every policy made for a fetch. */
const built = new WeakMap<readonly string[], AllowedAddresses>();

/** The matcher for entries in any form parseAllowedAddresses accepts; throws on one it refuses. */
export function allowedAddresses(entries: readonly string[] | undefined): AllowedAddresses {
  if (entries === undefined || entries.length === 0) return NONE;
  let matcher = built.get(entries);
  if (matcher) return matcher;
  const parsed = parseAllowedAddresses(entries.join(','));
  if (!parsed.ok) throw new Error(`bad allowed addresses: ${parsed.problem}`);
  const list = new BlockList();
  for (const text of parsed.entries) {
    const entry = parseEntry(text) as Extract<EntryParse, { ok: true }>;
    list.addSubnet(entry.address, entry.prefix, entry.family);
  }
  const normalized = [...parsed.entries].sort();
  matcher = {
    entries: normalized,
    has(ip: string): boolean {
      const canonical = canonicalAddress(ip);
      if (canonical === null) return false;
      return list.check(canonical, isIP(canonical) === 4 ? 'ipv4' : 'ipv6');
    },
  };
  built.set(entries, matcher);
  return matcher;
}
