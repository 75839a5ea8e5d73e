import { defineCheck } from '../check.ts';
import { Dict, Nullable, Str } from '../value-schema.ts';

/** Headers that name server software; the ASP.NET ones exist only to state a version. */
const SIGNATURE_HEADERS = ['server', 'x-powered-by', 'x-aspnet-version', 'x-aspnetmvc-version'];
/**
 * A version: a product token followed by "/digit" (RFC 9110 product syntax, "nginx/1.25", "Apache/2")
 * or a dotted number ("PHP 8.1", "4.0.30319"). Bare digits in host names ("mw1234.eqiad") do not count.
 */
const VERSION = /\/\s*v?\d|(?:^|[^\w.])v?\d+\.\d+/i;

const ServerSignatureValue = Dict(Nullable(Str()), 'each signature header (server, x_powered_by, x_aspnet_version, x_aspnetmvc_version) as sent, or null');

export const serverSignatureCheck = defineCheck<typeof ServerSignatureValue>({
  id: 'server_signature',
  category: 'security',
  importance: 'low',
  title: 'The server does not reveal software versions',
  failureTitle: 'The server reveals software versions',
  description:
    'Version numbers in `Server` or `X-Powered-By` headers tell attackers exactly which known vulnerabilities to try; they help no visitor.',
  howToFix:
    'Hide versions: `server_tokens off;` in nginx, `ServerTokens Prod` in Apache, `expose_php = Off` in php.ini, and remove `X-Powered-By` / `X-AspNet-Version` headers.',
  labels: {
    version_exposed: 'Headers that reveal a version',
  },
  value: ServerSignatureValue,
  run({ page }) {
    const value: Record<string, string | null> = {};
    const exposed: string[] = [];
    for (const name of SIGNATURE_HEADERS) {
      const header = page.headers[name] ?? null;
      value[name.replace(/-/g, '_')] = header;
      if (header !== null && VERSION.test(header)) exposed.push(`${name}: ${header}`);
    }
    if (exposed.length === 0) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { version_exposed: exposed } };
  },
});
