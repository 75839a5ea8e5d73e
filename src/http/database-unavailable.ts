// The answer to a request that failed because the database is down or not answering: 503 with
// Retry-After, which clients and load balancers retry, rather than a 500 that reads as a bug.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/database-errors.ts';

const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not available right now; retry shortly.';

export function sendDatabaseUnavailable(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  logUnavailable(request, error);
  reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
  return reply.code(503).send({ message: DATABASE_UNAVAILABLE_MESSAGE, status: 503 });
}

/** Logged as a warning without a stack: an outage fails every request the same way. */
function logUnavailable(request: FastifyRequest, error: unknown): void {
  request.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'database unavailable; answered 503');
}
