// Whether a URL's host may be connected to under the private-address policy, asked before anything is
// stored (a webhook's URL) so the account hears about it at once rather than at the first delivery.
// The guard still applies on every connection; this is only the early answer.
import type { LookupAddress } from 'node:dns';
import { guardedLookup, type AddressPolicy } from './address-guard.ts';

/** null when the host may be used; otherwise a sentence saying why not. */
export function hostRefusal(hostname: string, policy: AddressPolicy): Promise<string | null> {
  if (policy.allowPrivate) return Promise.resolve(null);
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return new Promise((resolve) => {
    guardedLookup(policy)(bare, { all: true }, (error: NodeJS.ErrnoException | null, _addresses: string | LookupAddress[]) => {
      if (!error) resolve(null);
      else if (error.name === 'AddressRefusedError') resolve(error.message);
      else resolve(`The host ${bare} could not be resolved (${error.code ?? error.message}).`);
    });
  });
}
