import { NotFoundError } from '../services/errors.ts';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,14}$/;

/**
 * Report ids are positive integers; anything else names no report (404, as for a report that does not
 * exist).
 */
export function parseId(raw: string): number {
  if (!POSITIVE_INTEGER.test(raw)) throw new NotFoundError();
  return Number(raw);
}
