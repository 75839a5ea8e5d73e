// Whole answers of the API's lists (GET /api/v1/reports and /api/v1/projects), kept in this process
// under everything they are made from: the account, its reports version, the list's path and query,
// and the origin its links name. The reports version moves in every transaction that writes the
// account's reports or projects (repositories/reports-version.ts) and each request reads it with its
// API key, before anything else it reads; so a kept answer is given only while nothing it shows has
// changed, whichever server process changed it. An answer made while a change committed is kept under
// the older version it was asked for: it is at least as new as that, and once requests see the new
// version they never ask for it again; it ages out. Least recently used answers go first when full.
//
// Why: lists are read far more often than an account's reports change (dashboards and tools poll
// them). A default list (100 items, 57 KB) spent about 420 µs in the server at a million reports, 180
// of them reading its items and count; keeping only the items still left a new 57 KB body per answer
// to build, and collecting it was 18% of the server's time. A kept answer is sent as it is.
import type { FastifyRequest } from 'fastify';
import { createKeptValues, type KeptValues } from '../services/kept-values.ts';

export type KeptListBodies = KeptValues<string>;

/** A kept answer's cost beyond its text and key: the record and the map's entry, roughly. */
const ENTRY_OVERHEAD_BYTES = 200;

/** Keeps answers up to about `maxBytes` of text (a character counted as a byte); 0 keeps none. */
export function createKeptListBodies(maxBytes: number): KeptListBodies {
  return createKeptValues<string>(maxBytes, (key, body) => key.length + body.length + ENTRY_OVERHEAD_BYTES);
}

/** `query`: the request's validated list query, which decides both the items and the links. */
export function listBodyKey(request: FastifyRequest, query: object): string {
  const path = request.url.split('?')[0];
  return JSON.stringify([request.account.id, request.reportsVersion, request.protocol, request.host, path, query]);
}
