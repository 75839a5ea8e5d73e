import { defineCheck } from '../check.ts';
import { isWebProtocol, resourceTargets } from '../../parse/link-urls.ts';
import { Dict, Int, Num, Obj } from '../value-schema.ts';

const HttpRequestsValue = Obj({ requests: Int(), by_tag: Dict(Int(), 'requests by tag name'), deferred: Int(), max: Num() });

export const httpRequestsCheck = defineCheck<typeof HttpRequestsValue>({
  id: 'http_requests',
  category: 'performance',
  importance: 'low',
  title: 'The page needs few requests',
  failureTitle: 'The page needs too many requests',
  description:
    'Each script, stylesheet, image, frame and media file the HTML loads up front is another request competing for the connection, which slows the first view.',
  howToFix:
    'Bundle scripts and stylesheets, lazy-load images and iframes below the fold (`loading="lazy"`), use `preload="none"` on media, and remove unused resources.',
  labels: {
    requests: 'Resources referenced', by_tag: 'By tag', deferred: 'Loaded lazily', max: 'Most allowed',
    too_many_requests: 'Too many resources',
  },
  value: HttpRequestsValue,
  run({ snapshot, thresholds }) {
    const counted = new Map<string, string>();
    let deferred = 0;
    const { resources } = snapshot;
    const targets = resourceTargets(snapshot);
    for (let i = 0; i < resources.length; i++) {
      const ref = resources[i];
      // srcset entries are alternatives: the browser fetches one, which the img itself accounts for.
      if (ref.attr === 'srcset') continue;
      if (ref.deferred) {
        deferred++;
        continue;
      }
      if (ref.url.trim() === '') continue;
      // data:, blob:, about: and the like need no network request.
      if (!isWebProtocol(targets.protocols[i])) continue;
      // The same URL twice is fetched once.
      const href = targets.hrefWithoutHash(i) as string;
      if (!counted.has(href)) counted.set(href, ref.tag);
    }
    const byTag: Record<string, number> = {};
    for (const tag of counted.values()) byTag[tag] = (byTag[tag] ?? 0) + 1;
    const srcsetOnlyImages = snapshot.images.filter(
      (img) => !img.src?.trim() && img.srcset?.trim() && img.loading?.trim().toLowerCase() !== 'lazy',
    ).length;
    if (srcsetOnlyImages > 0) byTag.img = (byTag.img ?? 0) + srcsetOnlyImages;

    const requests = counted.size + srcsetOnlyImages;
    const value = { requests, by_tag: byTag, deferred, max: thresholds.max_http_requests };
    if (requests <= thresholds.max_http_requests) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { too_many_requests: [{ requests, max: thresholds.max_http_requests }] } };
  },
});
