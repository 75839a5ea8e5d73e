import { defineCheck } from '../check.ts';
import { enforcedPolicies } from './content-security-policy.ts';
import { Bool, Nullable, Obj, Str } from '../value-schema.ts';

const SecurityHeadersValue = Obj({ content_security_policy: Nullable(Str()), csp_report_only: Bool(), x_content_type_options: Nullable(Str()) });

export const securityHeadersCheck = defineCheck<typeof SecurityHeadersValue>({
  id: 'security_headers',
  category: 'security',
  importance: 'low',
  title: 'Content-Security-Policy and nosniff are set',
  failureTitle: 'Security headers are missing',
  description:
    'A Content-Security-Policy limits where scripts may come from, blunting cross-site scripting; `X-Content-Type-Options: nosniff` stops browsers from running files sent with the wrong type.',
  howToFix:
    'Send a `Content-Security-Policy` header (start with `Content-Security-Policy-Report-Only` to test it) and `X-Content-Type-Options: nosniff` on every response.',
  labels: {
    content_security_policy: 'Content-Security-Policy', csp_report_only: 'Report-only policy',
    x_content_type_options: 'X-Content-Type-Options', missing: 'Missing headers',
  },
  value: SecurityHeadersValue,
  run(ctx) {
    const policies = enforcedPolicies(ctx);
    const headers = ctx.page.headers;
    const contentTypeOptions = headers['x-content-type-options'] ?? null;
    // Repeated headers arrive joined with ", "; browsers read the first value.
    const nosniff = contentTypeOptions?.split(',')[0].trim().toLowerCase() === 'nosniff';
    const value = {
      content_security_policy: policies[0]?.source ?? null,
      // Report-only policies enforce nothing, so they do not count.
      csp_report_only: Boolean(headers['content-security-policy-report-only']?.trim()),
      x_content_type_options: contentTypeOptions,
    };
    const missing: string[] = [];
    if (policies.length === 0) missing.push('Content-Security-Policy');
    if (!nosniff) missing.push('X-Content-Type-Options: nosniff');
    if (missing.length === 0) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { missing } };
  },
});
