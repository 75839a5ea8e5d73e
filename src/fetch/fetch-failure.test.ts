import { describe, expect, it } from 'vitest';
import { AddressRefusedError } from './address-guard.ts';
import { BodyTooLargeError } from './content-decoding.ts';
import { FetchError } from './fetch-error.ts';
import { toFetchError, type FailureContext } from './fetch-failure.ts';

const context = (overrides: Partial<FailureContext> = {}): FailureContext => ({
  url: new URL('https://example.com:8443/page'),
  timeoutMs: 10000,
  signal: new AbortController().signal,
  readingBody: false,
  subject: 'The page',
  ...overrides,
});
const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('toFetchError', () => {
  it('names a timeout by the deadline, whatever the underlying error', () => {
    const aborted = new AbortController();
    aborted.abort();
    const error = toFetchError(new Error('This operation was aborted'), context({ signal: aborted.signal }));
    expect([error.code, error.reason]).toEqual(['timeout', 'The server at example.com:8443 did not answer within 10000 ms.']);
    const whileReading = toFetchError(new Error('aborted'), context({ signal: aborted.signal, readingBody: true }));
    expect(whileReading.reason).toBe('The server at example.com:8443 did not send the whole page within 10000 ms.');
  });

  it.each([
    [withCode('ENOTFOUND'), 'dns', 'example.com could not be found (DNS).'],
    [withCode('EAI_AGAIN'), 'dns', 'example.com could not be found (DNS).'],
    [withCode('ECONNREFUSED'), 'refused', 'The server at example.com:8443 refused the connection.'],
    [new AggregateError([withCode('ECONNREFUSED')]), 'refused', 'The server at example.com:8443 refused the connection.'],
    [withCode('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'tls', 'The secure connection to example.com:8443 failed: self-signed certificate.'],
    [withCode('CERT_HAS_EXPIRED', 'certificate has expired'), 'tls', 'The secure connection to example.com:8443 failed: certificate has expired.'],
    [withCode('ECONNRESET'), 'network', 'The connection to example.com:8443 was closed unexpectedly.'],
    [withCode('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'), 'timeout', 'The server at example.com:8443 did not answer in time (Connect Timeout Error).'],
    [withCode('HPE_INVALID_CONSTANT', 'Expected HTTP/'), 'bad_response', 'The server at example.com:8443 sent an invalid HTTP response (Expected HTTP/).'],
    [withCode('Z_DATA_ERROR'), 'bad_response', 'The server at example.com:8443 sent a body that does not match its Content-Encoding.'],
    [new AddressRefusedError('10.0.0.1 is a private address; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).'), 'private_address', '10.0.0.1 is a private address; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).'],
    [new BodyTooLargeError(5242880), 'too_large', 'The page is larger than 5 MiB (PAGEGRADE_MAX_PAGE_BYTES).'],
  ])('maps %s', (err, code, reason) => {
    const error = toFetchError(err, context());
    expect([error.code, error.reason]).toEqual([code, reason]);
  });

  it('passes FetchErrors through unchanged', () => {
    const original = new FetchError('not_html', 'The page is application/pdf, not HTML.');
    expect(toFetchError(original, context())).toBe(original);
  });
});
