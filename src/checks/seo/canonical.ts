import { capItems, defineCheck, notApplicable, type CheckErrors } from '../check.ts';
import { isAbsoluteHttpUrl, resolveUrl } from '../../parse/url.ts';
import { parseLinkHeader } from '../../parse/headers/link-header.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Bool, Int, List, Nullable, Obj, OneOf, Opt, Str } from '../value-schema.ts';

interface Declared {
  source: 'head' | 'header';
  href: string;
  /** Resolved against the document (head) or the response URL (header); null when unparsable. */
  resolved: string | null;
}

const CanonicalValue = Obj({
  canonical: Opt(Nullable(Str())),
  points_to_self: Opt(Bool()),
  declarations: Opt(List(Obj({ source: OneOf(['head', 'header']), href: Str() }))),
  ignored_in_body: Int({ description: 'canonical links in the body, which search engines ignore' }),
});

export const canonicalCheck = defineCheck<typeof CanonicalValue>({
  id: 'canonical',
  category: 'seo',
  importance: 'medium',
  title: 'The canonical URL is valid',
  failureTitle: 'The canonical URL is invalid or conflicting',
  description:
    'rel=canonical tells search engines which URL to index when the same content is reachable at several addresses. A malformed or contradictory canonical is ignored, leaving the choice to the search engine.',
  howToFix:
    'Declare one canonical, as an absolute URL (`https://example.com/page`), in a `<link rel="canonical">` in the `<head>` or in the `Link` header, and make every declaration name the same URL.',
  labels: {
    canonical: 'Canonical URL', points_to_self: 'Points to this page', declarations: 'Canonical declarations',
    ignored_in_body: 'Canonical links in the body (ignored)', invalid: 'Invalid canonical URLs', relative: 'Relative canonical URLs',
    conflicting: 'Conflicting canonical URLs', source: 'Where', href: 'URL as written', message: 'Problem',
  },
  value: CanonicalValue,
  run({ page, snapshot }) {
    const declared: Declared[] = [
      ...snapshot.linkTags
        // Search engines ignore rel=canonical in the body (it may come from user content).
        .filter((link) => link.inHead && link.rel.includes('canonical'))
        .map((link) => declare('head', link.href ?? '', snapshot.baseUrl)),
      ...parseLinkHeader(page.headers['link'] ?? '')
        .filter((link) => link.rel.includes('canonical'))
        .map((link) => declare('header', link.href, page.finalUrl)),
    ];
    const ignoredInBody = snapshot.linkTags.filter((link) => !link.inHead && link.rel.includes('canonical')).length;
    if (declared.length === 0) return notApplicable('the page declares no canonical URL', { ignored_in_body: ignoredInBody });

    const errors: CheckErrors = {};
    const invalid = declared.filter((entry) => entry.resolved === null || !isAbsoluteHttpUrl(entry.resolved));
    const relative = declared.filter((entry) => !invalid.includes(entry) && !isAbsoluteHttpUrl(entry.href));
    const targets = [...new Set(declared.flatMap((entry) => (entry.resolved === null ? [] : [entry.resolved])))];
    if (invalid.length > 0) errors.invalid = capItems(invalid.map(({ source, href }) => ({ source, href })));
    if (relative.length > 0) {
      errors.relative = capItems(
        relative.map(({ source, href, resolved }) => ({ source, href, message: `relative URL; write it in full: ${resolved}` })),
      );
    }
    if (targets.length > 1) errors.conflicting = capItems(targets);

    const canonical = targets[0] ?? null;
    const value = {
      canonical,
      points_to_self: canonical !== null && stripFragment(canonical) === stripFragment(page.finalUrl),
      declarations: capItems(declared.map(({ source, href }) => ({ source, href }))),
      ignored_in_body: ignoredInBody,
    };
    return outcomeFromErrors(value, errors);
  },
});

function declare(source: Declared['source'], href: string, base: string): Declared {
  // An empty href would resolve to the page itself and hide the mistake.
  const resolved = href.trim() === '' ? null : resolveUrl(href, base);
  return { source, href, resolved: resolved?.href ?? null };
}

function stripFragment(url: string): string {
  return url.replace(/#.*$/, '');
}
