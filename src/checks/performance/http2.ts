import { defineCheck, notApplicable } from '../check.ts';
import { isHttpsPage } from '../security/page-scheme.ts';
import { Bool, Nullable, Obj, Str } from '../value-schema.ts';

const Http2Value = Obj({ http_version: Str(), origin_http2: Nullable(Bool()) });

export const http2Check = defineCheck<typeof Http2Value>({
  id: 'http2',
  category: 'performance',
  importance: 'low',
  title: 'The server speaks HTTP/2',
  failureTitle: 'The server only speaks HTTP/1.1',
  description:
    'HTTP/2 (and HTTP/3) carry many requests over one connection at once with compressed headers, so pages with many resources load faster than over HTTP/1.1.',
  howToFix:
    'Enable HTTP/2 in the web server or CDN (e.g. `listen 443 ssl http2;` in nginx, `Protocols h2 http/1.1` in Apache); it needs https.',
  labels: {
    http_version: 'HTTP version', origin_http2: 'The server offers HTTP/2', protocol: 'Protocol used',
  },
  value: Http2Value,
  run({ page, origin }) {
    const value = { http_version: page.httpVersion, origin_http2: origin.http2 };
    if (page.httpVersion === '2' || page.httpVersion === '3') return { passed: true, value, errors: null };
    if (!isHttpsPage(page)) return notApplicable('the page is not served over https, and browsers only use HTTP/2 over https', value);
    if (origin.http2 === null) return notApplicable('HTTP/2 support could not be tested', value);
    if (origin.http2) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { protocol: [`HTTP/${page.httpVersion}`] } };
  },
});
