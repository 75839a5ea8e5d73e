import { describe, expect, it } from 'vitest';
import type { AuxResponse } from '../../fetch/types.ts';
import { makeAux, makeContext } from '../../../test/support/check-context.ts';
import { notFoundPageCheck } from './404-page.ts';

const PROBE = 'https://example.com/pagegrade-404-probe';
const run = (overrides: Partial<AuxResponse>) => notFoundPageCheck.run(makeContext({ origin: { notFoundProbe: makeAux(PROBE, overrides) } }));

describe('404_page', () => {
  it('passes on 404 and 410', () => {
    expect(run({ statusCode: 404 })).toEqual({ passed: true, value: { url: PROBE, status_code: 404, final_url: PROBE, redirected: false }, errors: null });
    expect(run({ statusCode: 410 }).passed).toBe(true);
  });

  it('passes a redirect that ends in a 404', () => {
    expect(run({ statusCode: 404, redirected: true, finalUrl: 'https://example.com/404.html' }).passed).toBe(true);
  });

  it('fails a soft 404 (200 for a page that does not exist)', () => {
    expect(run({ statusCode: 200 })).toMatchObject({ passed: false, errors: { soft_404: [{ url: PROBE, status_code: 200 }] } });
  });

  it('fails a redirect to another page that answers 200, showing where it went', () => {
    expect(run({ statusCode: 200, redirected: true, finalUrl: 'https://example.com/' })).toMatchObject({
      passed: false,
      value: { final_url: 'https://example.com/' },
      errors: { redirect: [{ to: 'https://example.com/', status_code: 200 }] },
    });
  });

  it('fails other statuses', () => {
    expect(run({ statusCode: 500 })).toMatchObject({ passed: false, errors: { wrong_status: [{ status_code: 500 }] } });
  });

  it('cannot tell after a network error or rate limiting', () => {
    expect(run({ statusCode: null, error: 'timeout' })).toMatchObject({ passed: null, reason: expect.stringContaining('timeout') });
    expect(run({ statusCode: 429 }).passed).toBeNull();
  });
});
