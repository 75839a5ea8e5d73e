import { capItems, defineCheck, notApplicable, type CheckErrors } from '../check.ts';
import type { Image } from '../../parse/page-snapshot.ts';
import { outcomeFromErrors } from './outcome.ts';
import { locate } from '../locate.ts';
import { Int, List, Obj, Opt, Str } from '../value-schema.ts';

const DECORATIVE_ROLES = new Set(['presentation', 'none']);

const ImageKeywordsValue = Obj({
  images: Int({ description: 'every <img>, hidden ones included' }),
  hidden: Int({ description: 'images not judged: a hidden attribute or display:none on them or an ancestor' }),
  missing_alt: Opt(Int()),
  blank_alt: Opt(Int()),
  empty_alt: Opt(Int()),
  empty_alt_images: Opt(List(Str(), 'images marked decorative with alt=""')),
});

export const imageKeywordsCheck = defineCheck<typeof ImageKeywordsValue>({
  id: 'image_keywords',
  category: 'seo',
  importance: 'high',
  title: 'Every image has alt text or is marked decorative',
  failureTitle: 'Some images have no alt attribute, or a blank one',
  description:
    'Search engines read the alt text to understand images (and rank them in image search); screen readers read it aloud. An empty `alt=""` rightly marks an image as decorative; an alt of only spaces marks nothing and describes nothing.',
  howToFix:
    'Add an `alt` describing each listed image in a few words; for purely decorative images write exactly `alt=""`, with nothing between the quotes.',
  differsFromLighthouse:
    'An image needs an `alt` attribute (or role=presentation/none): an `aria-label` or `title` without alt satisfies Lighthouse\'s accessibility audit but not search engines, which read alt.',
  labels: {
    images: 'Images', hidden: 'Hidden images (not judged)', missing_alt: 'Images without alt text', blank_alt: 'Images with a blank alt',
    empty_alt: 'Images marked decorative (alt="")', empty_alt_images: 'Images marked decorative', src: 'Image',
  },
  value: ImageKeywordsValue,
  run({ page, snapshot }) {
    const { images } = snapshot;
    if (images.length === 0) return notApplicable('the page has no images');
    // A hidden image is not shown to readers or judged by search engines as content (tracking pixels,
    // closed pop-ups).
    const judged = images.filter((image) => !image.hidden);
    const hidden = images.length - judged.length;
    if (judged.length === 0) {
      return notApplicable('every image on the page is hidden (hidden attribute or display:none)', { images: images.length, hidden });
    }
    const described = judged.filter((image) => !isDecorativeRole(image));
    const missing = described.filter((image) => image.alt === null);
    // Only alt="" exactly marks decoration; spaces or no-break spaces look empty but are not (browsers
    // and screen readers treat them as text, and axe fails them).
    const blank = described.filter((image) => image.alt !== null && image.alt !== '' && image.alt.trim() === '');
    // Empty alt is correct for decoration; listed so a person can spot a meaningful image marked decorative.
    const emptyAlt = judged.filter((image) => image.alt === '').map(imageLabel);

    const value = {
      images: images.length,
      hidden,
      missing_alt: missing.length,
      blank_alt: blank.length,
      empty_alt: emptyAlt.length,
      empty_alt_images: capItems(emptyAlt),
    };
    const errors: CheckErrors = {};
    // Each listed image with its line and tag, so it can be found in the page's source.
    const listed = (list: Image[]) => capItems(list).map((image) => ({ src: imageLabel(image), ...locate(page, image) }));
    if (missing.length > 0) errors.missing_alt = listed(missing);
    if (blank.length > 0) errors.blank_alt = listed(blank);
    return outcomeFromErrors(value, errors);
  },
});

function isDecorativeRole(image: Image): boolean {
  return image.role !== null && image.role.trim().toLowerCase().split(/\s+/).some((role) => DECORATIVE_ROLES.has(role));
}

/** The image's src as written, or its srcset when it has no src. */
function imageLabel(image: Image): string {
  return image.src?.trim() || image.srcset?.trim() || '(no src)';
}
