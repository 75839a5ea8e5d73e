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
