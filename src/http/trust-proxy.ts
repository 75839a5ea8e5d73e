// PAGEGRADE_TRUST_PROXY as Fastify's trustProxy (docs/production.md, "Behind a reverse proxy"). Fastify
// walks the chain from the right, the TCP peer first, then X-Forwarded-For from its last entry, while
// the function says "a proxy"; the first address that is not one is request.ip. X-Forwarded-Proto
// (its right-most value) counts only when the TCP peer is one.
import { compile } from '@fastify/proxy-addr';
import type { TrustProxy } from '../config.ts';

type TrustFunction = (address: string, hop: number) => boolean;

export function proxyTrust(setting: TrustProxy): false | TrustFunction {
  if (setting === false) return false;
  if (setting === 'one-local-proxy') {
    const loopback = compile('loopback');
    // Only the TCP peer, and only on this machine: the entry that proxy appended is the client, and
    // whatever the client wrote to the left of it is never believed. (Not the number 1: Fastify trusts
    // nobody for a bare hop count, since it cannot check who the peer is.)
    return (address, hop) => hop === 0 && loopback(address, hop);
  }
  return compile(setting);
}
