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
