// Whole answers of the API's lists (GET /api/v1/reports and /api/v1/projects), kept in this process
// under everything they are made from: the account, its reports version, the list's path and query,
// and the origin its links name. The reports version moves in every transaction that writes the
// account's reports or projects (repositories/reports-version.ts) and each request reads it with its
// API key, before anything else it reads; so a kept answer is given only while nothing it shows has
// changed, whichever server process changed it. An answer made while a change committed is kept under
// the older version it was asked for: it is at least as new as that, and once requests see the new
// version they never ask for it again; it ages out. Least recently used answers go first when full.
// An answer is kept on its second ask (its key's second miss among the recent ones), not its first.
//
// Why: lists are read far more often than an account's reports change (dashboards and tools poll
// them). A default list (100 items, 57 KB) spent about 420 µs in the server at a million reports, 180
// of them reading its items and count; keeping only the items still left a new 57 KB body per answer
// to build, and collecting it was 18% of the server's time. A kept answer is sent as it is.
//
// Answers are kept as UTF-8 bytes, outside V8's heap. Kept as strings, a load of lists that are seldom
// asked twice (each a miss that replaces another kept answer) pushed tens of MB a second of strings
// through the old generation, and its collections made the filtered list slower with the cache than
// without (SQLite: 1,527 -> 947 req/s, p99 14 -> 46 ms). As bytes, the same load still doubled that
// list's p99 against no cache (6.2 -> 12.9 ms at 3,949 -> 3,656 req/s): every answer kept and soon
// pushed out is old-generation garbage. Kept only on a second ask, most answers of such a load die
// young, while a list that is polled is kept from its second request on.
import type { FastifyRequest } from 'fastify';
import { createKeptValues, type KeptValues } from '../services/kept-values.ts';

export type KeptListBodies = KeptValues<Buffer>;

/** A kept answer's cost beyond its bytes and key: the record, the buffer and the map's entry, roughly. */
const ENTRY_OVERHEAD_BYTES = 300;

/** Remembered asks per this many bytes of budget: about one per answer the budget holds (a list of 100 is 57 KB). */
const BYTES_PER_REMEMBERED_ASK = 32 * 1024;
const MIN_REMEMBERED_ASKS = 1_024;

/** Keeps answers up to about `maxBytes`; 0 keeps none. */
export function createKeptListBodies(maxBytes: number): KeptListBodies {
  return createKeptValues<Buffer>(maxBytes, (key, body) => key.length + body.length + ENTRY_OVERHEAD_BYTES, {
    secondMissAmong: Math.max(MIN_REMEMBERED_ASKS, Math.ceil(maxBytes / BYTES_PER_REMEMBERED_ASK)),
  });
}

/**
 * `madeFrom`: the list options and link parameters the answer is made from. Not the raw query: unknown
 * parameters are ignored (API.md), so they must not make answers that differ only in their key.
 */
export function listBodyKey(request: FastifyRequest, madeFrom: unknown): string {
  const path = request.url.split('?')[0];
  return JSON.stringify([request.account.id, request.reportsVersion, request.protocol, request.host, path, madeFrom]);
}
