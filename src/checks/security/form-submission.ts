// Where a form really submits to, as the browser computes it.
import type { CheckContext } from '../check.ts';
import type { Form } from '../../parse/page-snapshot.ts';
import { resolveUrl } from '../../parse/url.ts';
import { upgradesInsecureRequests } from './content-security-policy.ts';

/**
 * The submission URL: `action` resolved against the base URL, or the document's own URL when the
 * action is absent or empty (HTML form submission). An http:// URL on the page's own host counts as
 * https when the page's CSP has `upgrade-insecure-requests`. null when the action cannot be parsed.
 */
export function formSubmissionUrl(form: Form, ctx: CheckContext): URL | null {
  const action = form.action?.trim() ?? '';
  const url = action === '' ? resolveUrl(ctx.page.finalUrl, ctx.page.finalUrl) : resolveUrl(action, ctx.snapshot.baseUrl);
  if (!url || url.protocol !== 'http:') return url;
  const pageHost = URL.canParse(ctx.page.finalUrl) ? new URL(ctx.page.finalUrl).host : null;
  if (url.host === pageHost && upgradesInsecureRequests(ctx)) return new URL(`https:${url.href.slice('http:'.length)}`);
  return url;
}
