import { defineCheck, notApplicable } from '../check.ts';
import { Bool, Int, Obj, Str } from '../value-schema.ts';

const NotFoundPageValue = Obj({ url: Str({ description: 'the random path asked' }), status_code: Int(), final_url: Str(), redirected: Bool() });

export const notFoundPageCheck = defineCheck<typeof NotFoundPageValue>({
  id: '404_page',
  category: 'seo',
  importance: 'medium',
  title: 'Missing pages answer 404',
  failureTitle: 'Missing pages do not answer 404',
  description:
    'When an address that does not exist answers 200 (a "soft 404") or redirects to another page, search engines may index error pages, waste crawl time on them, and keep dead URLs in their results.',
  howToFix:
    'Make the server answer unknown paths with status 404 (or 410 for pages removed for good), with a helpful error page, instead of 200 or a redirect to the home page.',
  labels: {
    url: 'Made-up address asked', status_code: 'Status code', final_url: 'Where it ended', redirected: 'Redirected',
    redirect: 'Redirects to another page', soft_404: 'Answers as if the page existed (soft 404)',
    wrong_status: 'Answers with the wrong status', to: 'Redirects to',
  },
  value: NotFoundPageValue,
  run({ origin }) {
    const probe = origin.notFoundProbe;
    if (probe.statusCode === null) {
      return notApplicable(`the request for a random path on the site failed (${probe.error ?? 'no response'})`);
    }
    const value = { url: probe.url, status_code: probe.statusCode, final_url: probe.finalUrl, redirected: probe.redirected };
    // Rate limiting says nothing about how missing pages are handled.
    if (probe.statusCode === 429) return notApplicable('the site answered 429 Too Many Requests to the random path', value);
    if (probe.statusCode === 404 || probe.statusCode === 410) return { passed: true, value, errors: null };

    const landedElsewhere = probe.redirected && !samePage(probe.finalUrl, probe.url);
    if (probe.statusCode >= 200 && probe.statusCode < 300) {
      return landedElsewhere
        ? { passed: false, value, errors: { redirect: [{ to: probe.finalUrl, status_code: probe.statusCode }] } }
        : { passed: false, value, errors: { soft_404: [{ url: probe.finalUrl, status_code: probe.statusCode }] } };
    }
    return { passed: false, value, errors: { wrong_status: [{ url: probe.finalUrl, status_code: probe.statusCode }] } };
  },
});

/** Same document, ignoring a trailing slash and the fragment (a redirect that only adds "/" is not another page). */
function samePage(a: string, b: string): boolean {
  const normalise = (url: string) => url.replace(/#.*$/, '').replace(/\/$/, '');
  return normalise(a) === normalise(b);
}
