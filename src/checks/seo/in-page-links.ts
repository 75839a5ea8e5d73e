import { defineCheck } from '../check.ts';
import { anchorTargets, isWebProtocol, withoutFragment } from '../../parse/link-urls.ts';
import { hostnameHasSite, siteHost } from '../../parse/url.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Obj } from '../value-schema.ts';

const InPageLinksValue = Obj({ internal: Int(), external: Int(), nofollow: Int(), total: Int(), max: Int() });

export const inPageLinksCheck = defineCheck<typeof InPageLinksValue>({
  id: 'in_page_links',
  category: 'seo',
  importance: 'low',
  title: 'The page has a reasonable number of links',
  failureTitle: 'The page has too many links',
  description:
    'Each link passes on a share of the page’s value and competes for the reader’s attention; hundreds of links dilute both and make the important ones hard to find.',
  howToFix: 'Trim navigation, footer and tag-cloud links to the ones readers need, and move long link lists to their own pages.',
  labels: {
    internal: 'Internal links', external: 'External links', nofollow: 'Nofollow links', total: 'Links', max: 'Most links allowed',
    too_many: 'Too many links',
  },
  value: InPageLinksValue,
  run({ page, snapshot, thresholds }) {
    const pageHost = URL.canParse(page.finalUrl) ? siteHost(new URL(page.finalUrl)) : null;
    const pageWithoutFragment = withoutFragment(page.finalUrl);
    let internal = 0;
    let external = 0;
    let nofollow = 0;
    const { anchors } = snapshot;
    const targets = anchorTargets(snapshot);
    for (let i = 0; i < anchors.length; i++) {
      const { href, rel } = anchors[i];
      if (href === null || !isWebProtocol(targets.protocols[i])) continue;
      if (targets.jumpsWithinPage(i, pageWithoutFragment)) continue;
      if (pageHost !== null && hostnameHasSite(targets.hostnames[i], pageHost)) internal++;
      else external++;
      if (rel.includes('nofollow')) nofollow++;
    }
    const total = internal + external;
    const value = { internal, external, nofollow, total, max: thresholds.max_links };
    return outcomeFromErrors(value, total <= thresholds.max_links ? {} : { too_many: [{ total, max: thresholds.max_links }] });
  },
});
