// One undici Agent per address policy, reused by every fetch so connections stay warm. Its connector
// applies the private-address guard to every new connection and remembers the ALPN protocol each
// origin negotiated, which is how a response's HTTP version is known (undici does not report it).
import { Agent, buildConnector } from 'undici';
import { guardedLookup, policyKey, refusalBeforeLookup, type AddressPolicy } from './address-guard.ts';

/** A connect attempt that takes longer than this fails even if the fetch deadline is further away. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Large cookies and CSP headers exceed Node's 16 KiB default on real sites. */
const MAX_HEADER_BYTES = 64 * 1024;
/** Enough to remember the protocol of every origin fetched recently. */
const MAX_REMEMBERED_ORIGINS = 2000;

interface GuardedAgent {
  dispatcher: Agent;
  protocols: Map<string, string>;
}

const agents = new Map<string, GuardedAgent>();

export function agentFor(policy: AddressPolicy): Agent {
  return guardedAgent(policy).dispatcher;
}

/** "2" when connections to `url`'s origin negotiated HTTP/2, otherwise "1.1". */
export function httpVersionFor(url: URL, policy: AddressPolicy): string {
  const protocol = guardedAgent(policy).protocols.get(originKey(url.protocol, url.hostname, url.port));
  return protocol === 'h2' ? '2' : '1.1';
}

function guardedAgent(policy: AddressPolicy): GuardedAgent {
  const key = policyKey(policy);
  let agent = agents.get(key);
  if (!agent) {
    agent = createGuardedAgent(policy);
    agents.set(key, agent);
  }
  return agent;
}

function createGuardedAgent(policy: AddressPolicy): GuardedAgent {
  const protocols = new Map<string, string>();
  const connect = buildConnector({
    allowH2: true,
    timeout: CONNECT_TIMEOUT_MS,
    ...(policy.allowPrivate ? {} : { lookup: guardedLookup(policy) }),
  });
  const dispatcher = new Agent({
    allowH2: true,
    maxHeaderSize: MAX_HEADER_BYTES,
    connect(options, callback) {
      const refusal = refusalBeforeLookup(options.hostname, policy);
      if (refusal) {
        callback(refusal, null);
        return;
      }
      connect(options, (err, socket) => {
        if (err || !socket) {
          callback(err ?? new Error('connection failed'), null);
          return;
        }
        const alpn = 'alpnProtocol' in socket ? socket.alpnProtocol : null;
        remember(protocols, originKey(options.protocol, options.hostname, options.port), alpn);
        callback(null, socket);
      });
    },
  });
  return { dispatcher, protocols };
}

function remember(protocols: Map<string, string>, key: string, alpn: string | false | null | undefined): void {
  protocols.delete(key);
  if (protocols.size >= MAX_REMEMBERED_ORIGINS) protocols.delete(protocols.keys().next().value as string);
  protocols.set(key, alpn || 'http/1.1');
}

function originKey(protocol: string, hostname: string, port: string): string {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const defaultPort = protocol === 'https:' ? '443' : '80';
  return `${protocol}//${bare}:${port || defaultPort}`;
}
