import { capItems, defineCheck, notApplicable, type CheckErrors } from '../check.ts';
import { isAbsoluteHttpUrl } from '../../parse/url.ts';
import { parseLinkHeader } from '../../parse/headers/link-header.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Bool, Int, List, Obj, Str } from '../value-schema.ts';

// What search engines accept in hreflang: a 2-3 letter language, optionally a script and a region
// ("en", "en-GB", "zh-Hant-TW", "es-419"), or x-default for the fallback page.
const HREFLANG = /^(?:x-default|[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?)$/i;

interface Alternate {
  source: 'head' | 'header';
  hreflang: string;
  href: string;
}

const HreflangValue = Obj({ alternates: Int(), languages: List(Str()), has_x_default: Bool() });

export const hreflangCheck = defineCheck<typeof HreflangValue>({
  id: 'hreflang',
  category: 'seo',
  importance: 'low',
  title: 'hreflang alternates are valid',
  failureTitle: 'Some hreflang alternates are invalid',
  description:
    'hreflang links point search engines to the version of the page for each language or region, so searchers land on the one they can read. An invalid code or a relative URL makes search engines ignore that entry.',
  howToFix:
    'Give each `<link rel="alternate" hreflang>` a language code such as `en`, `en-GB` or `x-default` (hyphen, not underscore) and an absolute URL (`https://example.com/en/`).',
  labels: {
    alternates: 'Language alternates', languages: 'Languages', has_x_default: 'Has an x-default', invalid_code: 'Invalid language codes',
    not_absolute_url: 'URLs that are not absolute',
  },
  value: HreflangValue,
  run({ page, snapshot }) {
    const alternates: Alternate[] = [
      ...snapshot.linkTags
        .filter((link) => link.inHead && link.rel.includes('alternate') && link.hreflang !== null)
        .map((link) => ({ source: 'head' as const, hreflang: (link.hreflang ?? '').trim(), href: (link.href ?? '').trim() })),
      ...parseLinkHeader(page.headers['link'] ?? '')
        .filter((link) => link.rel.includes('alternate') && link.params.hreflang !== undefined)
        .map((link) => ({ source: 'header' as const, hreflang: link.params.hreflang.trim(), href: link.href })),
    ];
    if (alternates.length === 0) return notApplicable('the page declares no hreflang alternates');

    const badCode = alternates.filter((alternate) => !HREFLANG.test(alternate.hreflang));
    const notAbsolute = alternates.filter((alternate) => !isAbsoluteHttpUrl(alternate.href));
    const errors: CheckErrors = {};
    if (badCode.length > 0) errors.invalid_code = capItems(badCode);
    if (notAbsolute.length > 0) errors.not_absolute_url = capItems(notAbsolute);

    const codes = [...new Set(alternates.map((alternate) => alternate.hreflang.toLowerCase()))];
    const value = { alternates: alternates.length, languages: capItems(codes), has_x_default: codes.includes('x-default') };
    return outcomeFromErrors(value, errors);
  },
});
