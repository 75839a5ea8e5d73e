// The private-address guard. It runs where connections are made (see agents.ts and http2-probe.ts):
// on the IP literal before connecting, or inside DNS lookup on the addresses the socket will then
// use, so the address that was checked is the address connected to (no DNS-rebinding window).
import dns from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { canonicalAddress, classifyAddress, type AddressKind } from './address-classification.ts';
import { allowedAddresses, type AllowedAddresses } from './allowed-addresses.ts';
import type { FetchOptions } from './options.ts';

export interface AddressPolicy {
  allowPrivate: boolean;
  /** Canonical addresses treated as public (FetchOptions.publicAddressesForTests). */
  publicAddresses: ReadonlySet<string>;
  /** Not-public addresses the operator lets through all the same (PAGEGRADE_ALLOWED_ADDRESSES). */
  allowed: AllowedAddresses;
}

export function addressPolicy(options: Pick<FetchOptions, 'allowPrivate' | 'publicAddressesForTests' | 'allowedAddresses'>): AddressPolicy {
  const canonical = (options.publicAddressesForTests ?? []).map((ip) => canonicalAddress(ip) ?? ip);
  return { allowPrivate: options.allowPrivate, publicAddresses: new Set(canonical), allowed: allowedAddresses(options.allowedAddresses) };
}

/** A stable key for caching things per policy (agents, origin facts): equal keys, equal answers. */
export function policyKey(policy: AddressPolicy): string {
  const mode = policy.allowPrivate ? 'any' : 'public';
  return `${mode} ${[...policy.publicAddresses].sort().join(',')} ${policy.allowed.entries.join(',')}`;
}

const ARTICLE_KIND: Record<AddressKind, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  'unique-local': 'a unique-local address',
  CGNAT: 'a shared (CGNAT) address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

/** Thrown (through undici's connect path) when the guard refuses a target. */
export class AddressRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'AddressRefusedError';
  }
}

/** The kind of refused address `ip` is under `policy`, or null when it may be connected to. */
export function refusedKind(ip: string, policy: AddressPolicy): AddressKind | null {
  if (policy.allowPrivate) return null;
  if (policy.publicAddresses.has(canonicalAddress(ip) ?? ip)) return null;
  const kind = classifyAddress(ip);
  return kind && !policy.allowed.has(ip) ? kind : null;
}

/** Says which setting lifts the refusal, so an operator testing on an intranet or loopback knows what to set. */
const NOT_ANALYSED = 'pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).';

/** `localhost` and `*.localhost` always mean this machine (RFC 6761), whatever DNS says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * The refusal for a host known before any DNS: an IP literal (which never goes through lookup) or a
 * localhost name. null when the host may proceed (a name still goes through the guarded lookup). With
 * allowed addresses, a localhost name is looked up as any other, so that it passes exactly when every
 * address it resolves to is allowed.
 */
export function refusalBeforeLookup(hostname: string, policy: AddressPolicy): AddressRefusedError | null {
  if (policy.allowPrivate) return null;
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isIP(bare)) {
    const kind = refusedKind(bare, policy);
    return kind && new AddressRefusedError(`${bare} is ${ARTICLE_KIND[kind]}; ${NOT_ANALYSED}`);
  }
  if (isLocalhostName(bare) && policy.allowed.entries.length === 0) return new AddressRefusedError(`${bare} is this machine; ${NOT_ANALYSED}`);
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for net/tls.connect that resolves, refuses the whole host if any address is not
 * public (a name that mixes public and private addresses is not trusted), and hands the checked
 * addresses to the socket. `resolve` is replaceable for tests.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = dns.lookup) {
  return function lookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
    const early = refusalBeforeLookup(hostname, policy);
    if (early) {
      callback(early, []);
      return;
    }
    resolve(hostname, { family: options.family, hints: options.hints, all: true }, (err, addresses) => {
      if (err) {
        callback(err, []);
        return;
      }
      for (const { address } of addresses) {
        const kind = refusedKind(address, policy);
        if (kind) {
          callback(new AddressRefusedError(`${hostname} resolves to ${address}, ${ARTICLE_KIND[kind]}; ${NOT_ANALYSED}`), []);
          return;
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
