// Domain errors the services throw; the HTTP layer maps each to one status (http/errors.ts).

/** The resource does not exist for this caller (or belongs to another account: same answer). */
export class NotFoundError extends Error {
  constructor() {
    super('Resource not found.');
  }
}

/** Input that passed the schema but breaks a rule: 422 naming the field. */
export class ValidationError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** results=1 on a report whose latest analysis is still queued or running: 409. */
export class AnalysisInProgressError extends Error {
  constructor() {
    super('The report is already being analysed.');
  }
}

/** The background queue could not take a job (its Redis is away): 503, nothing was changed. */
export class QueueUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The background queue is not available right now; retry shortly, or analyse without async.', { cause });
  }
}

/**
 * A crawl refused because the account already has as many queued or running as it may
 * (PAGEGRADE_CRAWLS_PER_ACCOUNT): 429 with Retry-After; nothing was stored.
 */
export class TooManyCrawlsError extends Error {
  readonly status = 429;
  readonly retryAfterSeconds: number;
  constructor(limit: number, retryAfterSeconds: number) {
    super(`The account already has ${limit} crawls queued or running; start another when one has ended.`);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/**
 * A name-like field trimmed, of 1 to `max` characters (code points), or a ValidationError on
 * `field`: "The <label> must be 1 to <max> characters."
 */
export function boundedText(field: string, label: string, value: unknown, max: number): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (trimmed.length === 0 || [...trimmed].length > max) throw new ValidationError(field, `The ${label} must be 1 to ${max} characters.`);
  return trimmed;
}
