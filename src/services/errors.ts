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
