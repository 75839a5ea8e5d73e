import { defineCheck, notApplicable } from '../check.ts';
import { firstDistinctLocated } from '../locate.ts';
import { anchorTargets, isWebProtocol } from '../../parse/link-urls.ts';
import { hostnameHasSite, resolveUrl, siteHost } from '../../parse/url.ts';
import { Int, Obj } from '../value-schema.ts';

const UnsafeCrossOriginLinksValue = Obj({ external_new_tab_links: Int(), unsafe: Int() });

export const unsafeCrossOriginLinksCheck = defineCheck<typeof UnsafeCrossOriginLinksValue>({
  id: 'unsafe_cross_origin_links',
  category: 'security',
  importance: 'low',
  title: 'Links that open other sites in a new tab are safe',
  failureTitle: 'Links open other sites in a new tab without noopener',
  description:
    'A page opened with `target="_blank"` can reach back through `window.opener` and send your tab to a phishing page. Current browsers imply `noopener`, but older ones do not.',
  howToFix: 'Add `rel="noopener"` (or `rel="noopener noreferrer"`) to every `target="_blank"` link that points to another site.',
  labels: {
    external_new_tab_links: 'External links opening a new tab', unsafe: 'Without noopener or noreferrer',
    missing_noopener: 'Links without noopener', href: 'Link to',
  },
  value: UnsafeCrossOriginLinksValue,
  run({ page, snapshot }) {
    const pageUrl = resolveUrl(page.finalUrl, page.finalUrl);
    const pageHost = pageUrl ? siteHost(pageUrl) : null;
    let external = 0;
    const unsafe: number[] = [];
    const { anchors } = snapshot;
    const targets = anchorTargets(snapshot);
    for (let i = 0; i < anchors.length; i++) {
      const anchor = anchors[i];
      if (anchor.target?.trim().toLowerCase() !== '_blank' || anchor.href === null) continue;
      if (!isWebProtocol(targets.protocols[i]) || (pageHost !== null && hostnameHasSite(targets.hostnames[i], pageHost))) continue;
      external++;
      if (!anchor.rel.includes('noopener') && !anchor.rel.includes('noreferrer')) unsafe.push(i);
    }
    if (external === 0) return notApplicable('no link opens another site in a new tab');
    const value = { external_new_tab_links: external, unsafe: unsafe.length };
    if (unsafe.length === 0) return { passed: true, value, errors: null };
    const listed = firstDistinctLocated(unsafe, (i) => targets.href(i) as string, (i) => anchors[i], 'href', page);
    return { passed: false, value, errors: { missing_noopener: listed } };
  },
});
