import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { http2Check } from './http2.ts';

describe('http2', () => {
  it('passes when the origin negotiates HTTP/2', () => {
    expect(http2Check.run(makeContext({ origin: { http2: true } }))).toMatchObject({ passed: true, value: { origin_http2: true } });
  });

  it('passes when the page itself came over HTTP/2 or 3, even if the probe did not run', () => {
    expect(http2Check.run(makeContext({ page: { httpVersion: '3' }, origin: { http2: null } })).passed).toBe(true);
  });

  it('fails when the origin only speaks HTTP/1.1', () => {
    expect(http2Check.run(makeContext({ origin: { http2: false } }))).toMatchObject({ passed: false, errors: { protocol: ['HTTP/1.1'] } });
  });

  it('does not apply to plain http pages, and says so when the probe could not run', () => {
    const plain = http2Check.run(makeContext({ page: { finalUrl: 'http://example.com/' }, origin: { http2: null } }));
    expect(plain).toMatchObject({ passed: null, reason: expect.stringContaining('not served over https') });
    const untested = http2Check.run(makeContext({ origin: { http2: null } }));
    expect(untested).toMatchObject({ passed: null, reason: 'HTTP/2 support could not be tested' });
  });
});
