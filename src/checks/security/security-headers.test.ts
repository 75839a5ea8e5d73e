import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { MetaTag } from '../../parse/page-snapshot.ts';
import { securityHeadersCheck } from './security-headers.ts';

const cspMeta = (content: string | null, inHead = true): MetaTag => ({
  name: null, property: null, httpEquiv: 'content-security-policy', charset: null, content, inHead,
});

describe('security_headers', () => {
  it('passes with a CSP header and nosniff', () => {
    const headers = { 'content-security-policy': "default-src 'self'", 'x-content-type-options': 'NoSniff' };
    expect(securityHeadersCheck.run(makeContext({ page: { headers } }))).toMatchObject({ passed: true, value: { content_security_policy: 'header' } });
  });

  it('accepts a CSP meta tag in the head', () => {
    const outcome = securityHeadersCheck.run(
      makeContext({ page: { headers: { 'x-content-type-options': 'nosniff' } }, snapshot: { metas: [cspMeta("script-src 'self'")] } }),
    );
    expect(outcome).toMatchObject({ passed: true, value: { content_security_policy: 'meta' } });
  });

  it('fails and names what is missing; report-only, body and value= metas do not count', () => {
    const outcome = securityHeadersCheck.run(
      makeContext({
        page: { headers: { 'content-security-policy-report-only': "default-src 'self'", 'x-content-type-options': 'sniff' } },
        snapshot: { metas: [cspMeta("default-src 'self'", false), cspMeta(null)] },
      }),
    );
    expect(outcome).toMatchObject({
      passed: false,
      value: { content_security_policy: null, csp_report_only: true, x_content_type_options: 'sniff' },
      errors: { missing: ['Content-Security-Policy', 'X-Content-Type-Options: nosniff'] },
    });
  });
});
