import { capItems, defineCheck, notApplicable, type CheckErrors } from '../check.ts';
import { Bool, Int, List, Nullable, Obj, OneOf, Opt, Str } from '../value-schema.ts';

const SitemapValue = Obj({
  url: Nullable(Str()),
  source: Nullable(OneOf(['robots', 'default'])),
  url_count: Int(),
  listed_in_robots: Opt(List(Str())),
  valid_xml: Opt(Bool()),
});

export const sitemapCheck = defineCheck<typeof SitemapValue>({
  id: 'sitemap',
  category: 'miscellaneous',
  importance: 'low',
  title: 'The site has an XML sitemap',
  failureTitle: 'No valid XML sitemap was found',
  description:
    'A sitemap lists the pages you want indexed, helping search engines find new and deep pages sooner and crawl the site more completely.',
  howToFix:
    'Publish a sitemap at /sitemap.xml (most CMSs and SEO plugins generate one) and announce it with a `Sitemap: https://…/sitemap.xml` line in robots.txt.',
  labels: {
    url: 'Sitemap', source: 'Found through', url_count: 'URLs listed', listed_in_robots: 'Listed in robots.txt', valid_xml: 'Valid XML',
    unreachable: 'Sitemaps that could not be read', missing: 'No sitemap', bad_status: 'Error status', invalid_xml: 'Invalid XML',
  },
  value: SitemapValue,
  run({ origin, robots }) {
    const sitemap = origin.sitemap;
    const listedInRobots = robots?.sitemaps ?? [];
    if (sitemap === null) {
      const robotsStatus = origin.robotsTxt.statusCode;
      // Without robots.txt we cannot know where the sitemap lives, so a fetch problem is not a verdict.
      if (robotsStatus === null || robotsStatus >= 500) {
        const why = robotsStatus === null ? origin.robotsTxt.error ?? 'request failed' : `status ${robotsStatus}`;
        return notApplicable(`robots.txt could not be read (${why}) and /sitemap.xml gave no sitemap`);
      }
      const value = { url: null, source: null, url_count: 0, listed_in_robots: capItems(listedInRobots) };
      const errors: CheckErrors =
        listedInRobots.length > 0 ? { unreachable: capItems(listedInRobots) } : { missing: [`${origin.origin}/sitemap.xml`] };
      return { passed: false, value, errors };
    }
    const value = { url: sitemap.finalUrl, source: sitemap.source, url_count: sitemap.urlCount, valid_xml: sitemap.validXml };
    // No HTTP answer, or a 200 whose body could not be read (timeout, too large): not a verdict.
    if (sitemap.statusCode === null) {
      return notApplicable(`the sitemap at ${sitemap.url} could not be read (${sitemap.error ?? 'request failed'})`, value);
    }
    if (sitemap.statusCode !== 200) {
      return { passed: false, value, errors: { bad_status: [`${sitemap.url} answered ${sitemap.statusCode}`] } };
    }
    if (!sitemap.validXml) return { passed: false, value, errors: { invalid_xml: [sitemap.finalUrl] } };
    return { passed: true, value, errors: null };
  },
});
