import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { hstsCheck } from './hsts.ts';

const run = (header?: string) =>
  hstsCheck.run(makeContext({ page: { headers: header === undefined ? {} : { 'strict-transport-security': header } } }));

describe('hsts', () => {
  it('does not apply to http pages', () => {
    expect(hstsCheck.run(makeContext({ page: { finalUrl: 'http://example.com/' } })).passed).toBeNull();
  });

  it('passes a year-long max-age and reports the flags', () => {
    expect(run('max-age=31536000; includeSubDomains; preload')).toMatchObject({
      passed: true,
      value: { max_age: 31_536_000, include_subdomains: true, preload: true },
    });
  });

  it('reads directives case-insensitively with quoted values', () => {
    expect(run('Max-Age="63072000" ; INCLUDESUBDOMAINS')).toMatchObject({ passed: true, value: { max_age: 63_072_000, include_subdomains: true, preload: false } });
  });

  it('fails a missing header, a short max-age and an invalid header', () => {
    expect(run()).toMatchObject({ passed: false, errors: { missing: ['Strict-Transport-Security'] } });
    expect(run('max-age=86400')).toMatchObject({ passed: false, value: { max_age: 86_400 }, errors: { max_age_too_short: [86_400] } });
    expect(run('includeSubDomains')).toMatchObject({ passed: false, errors: { invalid: ['no max-age directive: includeSubDomains'] } });
  });

  it('uses the configured minimum', () => {
    const outcome = hstsCheck.run(makeContext({ page: { headers: { 'strict-transport-security': 'max-age=86400' } }, thresholds: { min_hsts_max_age_s: 86_400 } }));
    expect(outcome.passed).toBe(true);
  });
});
