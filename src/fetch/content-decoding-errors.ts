// What undoing a Content-Encoding can fail with, apart from the codecs' own errors.

/** Thrown by a decoder once its output passes the byte cap. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`body larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Thrown for a coding pagegrade cannot undo ("compress", a typo, ...). */
export class UnsupportedEncodingError extends Error {
  constructor(readonly coding: string) {
    super(`unsupported content-encoding ${coding}`);
    this.name = 'UnsupportedEncodingError';
  }
}

/** More codings stacked than any real server applies (each one is another decoder to run). */
export class TooManyEncodingsError extends Error {
  constructor(
    readonly count: number,
    readonly max: number,
  ) {
    super(`${count} content-encodings, more than ${max}`);
    this.name = 'TooManyEncodingsError';
  }
}

/** zstd data fzstd (on its thread) could not decode. */
export class ZstdDataError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`invalid zstd data: ${message}`, options);
    this.name = 'ZstdDataError';
  }
}
