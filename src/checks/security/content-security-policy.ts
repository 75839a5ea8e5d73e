// The Content-Security-Policy a browser would enforce for the page: the header plus any
// `<meta http-equiv=Content-Security-Policy>` in the head (browsers ignore it in the body).
import type { CheckContext } from '../check.ts';

export interface PolicySource {
  source: 'header' | 'meta';
  policy: string;
}

export function enforcedPolicies(ctx: CheckContext): PolicySource[] {
  const policies: PolicySource[] = [];
  const header = ctx.page.headers['content-security-policy']?.trim();
  if (header) policies.push({ source: 'header', policy: header });
  for (const meta of ctx.snapshot.metas) {
    const content = meta.content?.trim();
    if (meta.inHead && meta.httpEquiv === 'content-security-policy' && content) {
      policies.push({ source: 'meta', policy: content });
    }
  }
  return policies;
}

/** `upgrade-insecure-requests` makes browsers fetch http:// subresources (and same-host form posts) over https. */
export function upgradesInsecureRequests(ctx: CheckContext): boolean {
  return enforcedPolicies(ctx).some(({ policy }) =>
    // Repeated headers arrive joined with ", ", so both `,` and `;` separate directives here.
    policy.split(/[;,]/).some((directive) => directive.trim().toLowerCase().split(/\s+/)[0] === 'upgrade-insecure-requests'),
  );
}
