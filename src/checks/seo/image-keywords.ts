import { capItems, defineCheck, notApplicable } from '../check.ts';
import type { Image } from '../../parse/page-snapshot.ts';
import { outcomeFromErrors } from './outcome.ts';

const DECORATIVE_ROLES = new Set(['presentation', 'none']);

export const imageKeywordsCheck = defineCheck({
  id: 'image_keywords',
  category: 'seo',
  importance: 'high',
  title: 'Every image has an alt attribute',
  failureTitle: 'Some images have no alt attribute',
  description:
    'Search engines read the alt text to understand images (and rank them in image search); screen readers read it aloud. An empty `alt=""` rightly marks an image as decorative.',
  howToFix:
    'Add an `alt` describing each listed image in a few words; for purely decorative images write `alt=""`.',
  run({ snapshot }) {
    const { images } = snapshot;
    if (images.length === 0) return notApplicable('the page has no images');
    const missing = images.filter((image) => image.alt === null && !isDecorativeRole(image)).map(imageLabel);
    // Empty alt is correct for decoration; listed so a person can spot a meaningful image marked decorative.
    const emptyAlt = images.filter((image) => image.alt !== null && image.alt.trim() === '').map(imageLabel);

    const value = { images: images.length, missing_alt: missing.length, empty_alt: emptyAlt.length, empty_alt_images: capItems(emptyAlt) };
    return outcomeFromErrors(value, missing.length === 0 ? {} : { missing_alt: capItems(missing) });
  },
});

function isDecorativeRole(image: Image): boolean {
  return image.role !== null && image.role.trim().toLowerCase().split(/\s+/).some((role) => DECORATIVE_ROLES.has(role));
}

/** The image's src as written, or its srcset when it has no src. */
function imageLabel(image: Image): string {
  return image.src?.trim() || image.srcset?.trim() || '(no src)';
}
