// How the browser's proxy resolves names, before the guard checks the answers (guardedLookup): with
// c-ares (dns.Resolver), a few queries at a time, answers kept for a while. A browser behaves the same
// way (Chromium resolves asynchronously, runs a handful of lookups at once and keeps a host cache), and
// a page names dozens of hosts, the next page mostly the same ones.
//
// Why not dns.lookup: getaddrinfo runs on libuv's four threads, shared with the server's file, zlib and
// crypto work; a few slow names held every other lookup, and that work, behind them. Why a limit: a
// burst of a hundred queries (50 hosts, A and AAAA) took 3-4 s to be answered here, where one at a time
// takes a millisecond. Why a cache: the guard checks cached addresses as it checks fresh ones, and the
// proxy connects to exactly what was checked, so keeping them changes nothing the guard sees.
// c-ares does not read /etc/hosts, which getaddrinfo does first: names there are answered from it.
import dns, { type LookupAddress, type LookupAllOptions } from 'node:dns';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

type Callback = (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

/** Chromium's own resolver runs about this many lookups at once. */
const MAX_QUERIES_IN_FLIGHT = 8;
/** Answers are kept for their TTL up to this long; "no such name" for a shorter while. */
const MAX_TTL_S = 300;
const NOT_FOUND_TTL_S = 60;
const MAX_CACHED_NAMES = 2_000;
/** /etc/hosts is read again after this long, so an edit is seen without a restart. */
const HOSTS_FILE_TTL_MS = 60_000;

const resolver = new dns.Resolver({ timeout: 2_500, tries: 2 });
const cache = new Map<string, { expires: number; addresses: LookupAddress[] | null; error?: NodeJS.ErrnoException }>();
const waiting: (() => void)[] = [];
let inFlight = 0;

function query(hostname: string, family: 4 | 6): Promise<{ addresses: LookupAddress[]; ttl: number }> {
  return new Promise((resolve, reject) => {
    const start = () => {
      inFlight += 1;
      const done = (error: NodeJS.ErrnoException | null, records: dns.RecordWithTtl[]) => {
        inFlight -= 1;
        waiting.shift()?.();
        if (error) return reject(error);
        const ttl = Math.min(MAX_TTL_S, ...records.map((record) => record.ttl));
        resolve({ addresses: records.map((record) => ({ address: record.address, family })), ttl });
      };
      if (family === 4) resolver.resolve4(hostname, { ttl: true }, done);
      else resolver.resolve6(hostname, { ttl: true }, done);
    };
    if (inFlight < MAX_QUERIES_IN_FLIGHT) start();
    else waiting.push(start);
  });
}

function remember(key: string, ttlS: number, addresses: LookupAddress[] | null, error?: NodeJS.ErrnoException): void {
  if (cache.size >= MAX_CACHED_NAMES) cache.delete(cache.keys().next().value as string);
  cache.set(key, { expires: Date.now() + ttlS * 1000, addresses, error });
}

let hostsFile: { read: number; names: Map<string, LookupAddress[]> } | null = null;

/** The names /etc/hosts gives addresses (lower-case), read at most once a minute. */
function hostsFileNames(): Map<string, LookupAddress[]> {
  if (hostsFile && Date.now() - hostsFile.read < HOSTS_FILE_TTL_MS) return hostsFile.names;
  const names = new Map<string, LookupAddress[]>();
  let text = '';
  try {
    text = readFileSync('/etc/hosts', 'utf8');
  } catch {
    // no hosts file (not Linux, or a container without one): nothing to add
  }
  for (const line of text.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    const family = isIP(address ?? '');
    if (family !== 4 && family !== 6) continue;
    for (const alias of aliases) names.set(alias.toLowerCase(), [...(names.get(alias.toLowerCase()) ?? []), { address, family }]);
  }
  hostsFile = { read: Date.now(), names };
  return names;
}

/** A `resolve` for guardedLookup: every address of the name (of the family asked, or both). */
export function resolveForBrowser(hostname: string, options: LookupAllOptions, callback: Callback): void {
  const families: (4 | 6)[] = options.family === 4 ? [4] : options.family === 6 ? [6] : [4, 6];
  const listed = hostsFileNames().get(hostname.toLowerCase().replace(/\.$/, ''))?.filter((entry) => families.includes(entry.family as 4 | 6));
  if (listed && listed.length > 0) {
    queueMicrotask(() => callback(null, listed));
    return;
  }
  const key = `${families.join('')}:${hostname.toLowerCase()}`;
  const cached = cache.get(key);
  if (cached && cached.expires > Date.now()) {
    queueMicrotask(() => (cached.addresses ? callback(null, cached.addresses) : callback(cached.error!, [])));
    return;
  }
  void Promise.allSettled(families.map((family) => query(hostname, family))).then((answers) => {
    const found = answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : []));
    const addresses = found.flatMap((answer) => answer.addresses);
    if (addresses.length > 0) {
      remember(key, Math.min(...found.map((answer) => answer.ttl)), addresses);
      return callback(null, addresses);
    }
    const failure = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    const error: NodeJS.ErrnoException = failure?.reason ?? Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
    // No record of either family is a name without addresses: say so as dns.lookup would.
    if (error.code === 'ENODATA') error.code = 'ENOTFOUND';
    // Only a definite "no such name" is kept; a timeout or a refused query is asked again next time.
    if (error.code === 'ENOTFOUND') remember(key, NOT_FOUND_TTL_S, null, error);
    callback(error, []);
  });
}
