import { defineCheck, notApplicable } from '../check.ts';
import { Int, Nullable, Obj, OneOf, Opt, Str } from '../value-schema.ts';

const FaviconValue = Obj({
  source: OneOf(['link', '/favicon.ico']),
  href: Opt(Str()),
  url: Opt(Str()),
  status_code: Opt(Int()),
  content_type: Opt(Nullable(Str())),
});

export const faviconCheck = defineCheck<typeof FaviconValue>({
  id: 'favicon',
  category: 'seo',
  importance: 'low',
  title: 'The site has a favicon',
  failureTitle: 'The site has no favicon',
  description:
    'Search engines show the favicon next to the page in mobile results, and browsers in tabs and bookmarks; without one the site gets a generic icon that is easy to overlook.',
  howToFix:
    'Add `<link rel="icon" href="/favicon.svg">` (or a PNG/ICO) to the `<head>`, or serve an image at `/favicon.ico`. Google wants a square icon of at least 48×48 pixels.',
  labels: {
    source: 'Found in', href: 'Icon link', url: 'URL', status_code: 'Status code', content_type: 'Content type', missing: 'No favicon',
  },
  value: FaviconValue,
  run({ snapshot, origin }) {
    // The `icon` token only: "shortcut icon" counts, "apple-touch-icon" alone is not a favicon.
    const href = snapshot.linkTags
      .filter((tag) => tag.inHead && tag.rel.includes('icon'))
      .map((tag) => (tag.href ?? '').trim())
      .find((value) => value !== '');
    if (href !== undefined) return { passed: true, value: { source: 'link' as const, href }, errors: null };

    const ico = origin.faviconIco;
    if (ico.statusCode === null) {
      return notApplicable(`no link rel=icon, and /favicon.ico could not be fetched (${ico.error ?? 'no response'})`);
    }
    const mediaType = ico.contentType?.split(';')[0].trim().toLowerCase() ?? null;
    const value = { source: '/favicon.ico' as const, url: ico.finalUrl, status_code: ico.statusCode, content_type: mediaType };
    // Some servers label icons application/octet-stream; browsers still show them.
    const isImage = mediaType !== null && (mediaType.startsWith('image/') || mediaType === 'application/octet-stream');
    if (ico.statusCode === 200 && isImage) return { passed: true, value, errors: null };
    const problem =
      ico.statusCode === 200 ? `/favicon.ico is not an image (${mediaType ?? 'no content type'})` : `/favicon.ico answered ${ico.statusCode}`;
    return { passed: false, value, errors: { missing: [problem] } };
  },
});
