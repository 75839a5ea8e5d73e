import { NotFoundError } from '../services/errors.ts';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,14}$/;

/** An id as a path, header or form gives it: a positive integer (at most 15 digits), else null. */
export function positiveId(raw: string): number | null {
  return POSITIVE_INTEGER.test(raw) ? Number(raw) : null;
}

/**
 * Report ids are positive integers; anything else names no report (404, as for a report that does not
 * exist).
 */
export function parseId(raw: string): number {
  const id = positiveId(raw);
  if (id === null) throw new NotFoundError();
  return id;
}
