// The one error the fetch stage throws: a code for programs and a sentence for people.

export type FetchErrorCode =
  | 'invalid_url'
  | 'dns'
  | 'refused'
  | 'timeout'
  | 'tls'
  | 'private_address'
  | 'too_many_redirects'
  | 'redirect_loop'
  | 'not_html'
  | 'too_large'
  | 'network'
  | 'bad_response';

export class FetchError extends Error {
  readonly code: FetchErrorCode;
  /** A sentence the user can act on, e.g. "The page is application/pdf, not HTML." */
  readonly reason: string;

  constructor(code: FetchErrorCode, reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'FetchError';
    this.code = code;
    this.reason = reason;
  }
}

/** What fetch-page.ts calls the page in its messages; the checks' small requests say "The response". */
export const PAGE_SUBJECT = 'The page';

/** A byte limit as people read it: MiB (one decimal when not whole, 1.5 MiB), KiB below 1 MiB. */
export function sizeInWords(bytes: number): string {
  const [amount, unit] = bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'MiB'] : [bytes / 1024, 'KiB'];
  return `${Number.isInteger(amount) ? amount : amount.toFixed(1)} ${unit}`;
}

/**
 * Why a page over PAGEGRADE_MAX_PAGE_BYTES is refused, in the same words whether Content-Length
 * declared the size, reading the body met it, or decompressing did.
 */
export function pageTooLargeReason(maxBytes: number): string {
  return `The page is larger than ${sizeInWords(maxBytes)} (PAGEGRADE_MAX_PAGE_BYTES).`;
}
