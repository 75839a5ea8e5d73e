import { defineCheck, MAX_ERROR_ITEMS, notApplicable } from '../check.ts';
import { outcomeFromErrors } from './outcome.ts';
import { locate } from '../locate.ts';
import { Int, Obj } from '../value-schema.ts';

const HeadingOrderValue = Obj({ headings: Int(), skips: Int() });

export const headingOrderCheck = defineCheck<typeof HeadingOrderValue>({
  id: 'heading_order',
  category: 'seo',
  importance: 'low',
  title: 'Headings do not skip levels',
  failureTitle: 'Headings skip levels',
  description:
    'Headings form the outline of the page. Jumping from h2 straight to h4 leaves a hole in that outline for search engines and screen-reader users; going back up (h3 to h2) is normal.',
  howToFix: 'Go down one level at a time: an h2 section holds h3 subsections, an h3 holds h4s. Style headings with CSS rather than picking a level for its size.',
  labels: {
    headings: 'Headings', skips: 'Levels skipped', skipped_level: 'Headings that skip a level', from: 'After a', to: 'Comes a',
    text: 'Heading text',
  },
  value: HeadingOrderValue,
  run({ page, snapshot }) {
    const { headings } = snapshot;
    if (headings.length === 0) return notApplicable('the page has no headings');
    // Only the listed skips are located; all are counted.
    const skips: Record<string, unknown>[] = [];
    let skipCount = 0;
    for (let i = 1; i < headings.length; i++) {
      const previous = headings[i - 1];
      const current = headings[i];
      if (current.level > previous.level + 1) {
        if (skips.length < MAX_ERROR_ITEMS) skips.push({ from: `h${previous.level}`, to: `h${current.level}`, text: current.text, ...locate(page, current) });
        skipCount++;
      }
    }
    const value = { headings: headings.length, skips: skipCount };
    return outcomeFromErrors(value, skipCount === 0 ? {} : { skipped_level: skips });
  },
});
