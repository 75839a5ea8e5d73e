// Which errors mean "the database cannot be reached or did not answer" (a 503 the client may retry)
// rather than a fault in pagegrade (a 500): PostgreSQL gone, restarting, refusing, or too slow, and
// SQLite locked by another process for longer than its busy timeout.

/** Seconds a client is told to wait after a 503 for an unavailable database: about what a restart or failover takes. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATE codes: class 08 (connection exception), 53300 too many connections, 57014 a statement
 * cancelled by statement_timeout, 57P01-57P03 the server shutting down, crashed or still starting.
 */
function isUnavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || ['53300', '57014', '57P01', '57P02', '57P03'].includes(code);
}

/** node-postgres and pg-pool say these in words only. */
const PG_MESSAGES = [
  'Connection terminated',
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

const SQLITE_BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED']);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLITE_BUSY_CODES.has(code) || isUnavailableSqlState(code))) {
      return true;
    }
    if (PG_MESSAGES.some((message) => current instanceof Error && current.message.startsWith(message))) return true;
  }
  return false;
}
