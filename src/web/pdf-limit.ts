// The one limit on PDFs (docs/web.md): a PDF costs a browser tab for a second or two where a page costs
// milliseconds, so one client address gets this many a minute, counted over every PDF route of the
// server together (/reports/{id}.pdf and the share links' /s/{token}.pdf, docs/organisations.md).
// With REDIS_URL every server process shares the count; without, the routes of one process share it.
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';

const PDFS_PER_MINUTE = 10;
const WINDOW_MS = 60_000;
/** Addresses counted at once; past it the one heard from least recently is forgotten (as @fastify/rate-limit's own store). */
const ADDRESSES_KEPT = 5000;

/** A fixed window per key, from its first request: @fastify/rate-limit's in-memory counting, kept once per server. */
class WindowCounts {
  private readonly counts = new Map<string, { current: number; startMs: number }>();

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
    const nowMs = Date.now();
    let entry = this.counts.get(key);
    if (entry === undefined || entry.startMs + WINDOW_MS <= nowMs) entry = { current: 0, startMs: nowMs };
    entry.current += 1;
    // Deleted and set again, so the Map's order is the order keys were last heard from.
    this.counts.delete(key);
    this.counts.set(key, entry);
    if (this.counts.size > ADDRESSES_KEPT) this.counts.delete(this.counts.keys().next().value as string);
    callback(null, { current: entry.current, ttl: entry.startMs + WINDOW_MS - nowMs });
  }
}

/** Each server's count, whichever of its PDF routes registers first; a new app (a test's) starts at zero. */
const countsByServer = new WeakMap<object, WindowCounts>();

function sharedCounts(app: FastifyInstance): FastifyRateLimitStoreCtor {
  let counts = countsByServer.get(app.server);
  if (counts === undefined) {
    counts = new WindowCounts();
    countsByServer.set(app.server, counts);
  }
  const shared = counts;
  // @fastify/rate-limit constructs a store per registration: each of these counts in the server's one.
  return class SharedCounts implements FastifyRateLimitStore {
    incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1]): void {
      shared.incr(key, callback);
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** Limits every route registered after it in the caller's scope (a PDF route's own plugin). */
export async function registerPdfLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    max: PDFS_PER_MINUTE,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => `pdf:${request.ip}`,
    ...(app.redis ? { redis: app.redis, nameSpace: 'pagegrade-pdf-rate-limit:' } : { store: sharedCounts(app) }),
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `PDFs are limited to ${context.max} a minute from one address; try again in ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });
}
