import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { httpsEncryptionCheck } from './https-encryption.ts';

describe('https_encryption', () => {
  it('passes an https page', () => {
    expect(httpsEncryptionCheck.run(makeContext()).passed).toBe(true);
  });

  it('fails when the final URL is http, even if https was requested', () => {
    const outcome = httpsEncryptionCheck.run(makeContext({ page: { requestedUrl: 'https://example.com/', finalUrl: 'http://example.com/' } }));
    expect(outcome).toMatchObject({ passed: false, value: { requested_url: 'https://example.com/' }, errors: { insecure_url: ['http://example.com/'] } });
  });
});
