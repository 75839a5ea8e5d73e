import { capItems, defineCheck, notApplicable } from '../check.ts';
import { resolveUrl, siteHost } from '../../parse/url.ts';

export const unsafeCrossOriginLinksCheck = defineCheck({
  id: 'unsafe_cross_origin_links',
  category: 'security',
  importance: 'low',
  title: 'Links that open other sites in a new tab are safe',
  failureTitle: 'Links open other sites in a new tab without noopener',
  description:
    'A page opened with `target="_blank"` can reach back through `window.opener` and send your tab to a phishing page. Current browsers imply `noopener`, but older ones do not.',
  howToFix: 'Add `rel="noopener"` (or `rel="noopener noreferrer"`) to every `target="_blank"` link that points to another site.',
  run({ page, snapshot }) {
    const pageUrl = resolveUrl(page.finalUrl, page.finalUrl);
    const pageHost = pageUrl ? siteHost(pageUrl) : null;
    const external: string[] = [];
    const unsafe: string[] = [];
    for (const anchor of snapshot.anchors) {
      if (anchor.target?.trim().toLowerCase() !== '_blank' || anchor.href === null) continue;
      const url = resolveUrl(anchor.href, snapshot.baseUrl);
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || siteHost(url) === pageHost) continue;
      external.push(url.href);
      if (!anchor.rel.includes('noopener') && !anchor.rel.includes('noreferrer')) unsafe.push(url.href);
    }
    if (external.length === 0) return notApplicable('no link opens another site in a new tab');
    const value = { external_new_tab_links: external.length, unsafe: unsafe.length };
    if (unsafe.length === 0) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { missing_noopener: capItems([...new Set(unsafe)]) } };
  },
});
