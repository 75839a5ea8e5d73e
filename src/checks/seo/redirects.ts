import { capItems, defineCheck, type CheckErrors } from '../check.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, List, Obj, Str } from '../value-schema.ts';

// One hop (http to https, or adding "www.") is routine; each extra hop costs a round trip and crawl budget.
const MAX_HOPS = 1;

const RedirectsValue = Obj({ count: Int(), chain: List(Obj({ url: Str(), status_code: Int(), location: Str() })), final_url: Str() });

export const redirectsCheck = defineCheck<typeof RedirectsValue>({
  id: 'redirects',
  category: 'seo',
  importance: 'medium',
  title: 'The page is reached in at most one redirect',
  failureTitle: 'The page is behind a redirect chain or loop',
  description:
    'Every redirect adds a round trip before the page starts loading, and search engines follow only a few hops; a loop never reaches a page at all.',
  howToFix:
    'Link to and redirect straight to the final URL: make each old URL answer one 301 to the final address, and break any loop.',
  labels: {
    count: 'Redirects', chain: 'Redirect chain', final_url: 'Final URL', loop: 'Redirect loop', too_many: 'Too many redirects', url: 'URL',
    status_code: 'Status code', location: 'Redirects to',
  },
  value: RedirectsValue,
  run({ page }) {
    const chain = page.redirects.map((hop) => ({ url: hop.url, status_code: hop.statusCode, location: hop.location }));
    // Every address visited, in order; a repeat means the chain went round in a circle.
    const last = page.redirects.at(-1);
    const visited = last === undefined ? [] : [...page.redirects.map((hop) => hop.url), last.location];
    const repeated = visited.filter((url, index) => visited.indexOf(url) !== index);

    const errors: CheckErrors = {};
    if (repeated.length > 0) errors.loop = capItems([...new Set(repeated)]);
    if (chain.length > MAX_HOPS) errors.too_many = capItems(visited);

    const value = { count: chain.length, chain: capItems(chain), final_url: page.finalUrl };
    return outcomeFromErrors(value, errors);
  },
});
