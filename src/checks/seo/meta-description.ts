import { capItems, defineCheck, type CheckErrors } from '../check.ts';
import { metasNamed, metaText } from './meta-tags.ts';
import { codePointLength } from './text-measure.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Nullable, Obj, Str } from '../value-schema.ts';

const MetaDescriptionValue = Obj({ description: Nullable(Str()), length: Int(), count: Int(), outside_head: Int() });

export const metaDescriptionCheck = defineCheck<typeof MetaDescriptionValue>({
  id: 'meta_description',
  category: 'seo',
  importance: 'high',
  title: 'The page has a good meta description',
  failureTitle: 'The meta description is missing, repeated or of the wrong length',
  description:
    'Search engines often show the meta description as the snippet under the title; a clear one wins clicks. Without one, or with several, they pick text from the page themselves.',
  howToFix:
    'Add exactly one `<meta name="description" content="...">` to the `<head>`, summarising this page in about 50 to 160 characters.',
  labels: {
    description: 'Description', length: 'Length (characters)', count: 'Description tags', outside_head: 'Description tags outside the head',
    missing: 'No meta description', multiple: 'More than one description', empty: 'Empty description', too_short: 'Too short',
    too_long: 'Too long', min: 'Fewest characters wanted', max: 'Most characters allowed',
  },
  value: MetaDescriptionValue,
  run({ snapshot, thresholds }) {
    const all = metasNamed(snapshot.metas, ['description']);
    const inHead = all.filter((meta) => meta.inHead);
    const outsideHead = all.length - inHead.length;
    if (inHead.length === 0) {
      const errors: CheckErrors = outsideHead > 0 ? { outside_head: [{ count: outsideHead }] } : { missing: ['<meta name="description">'] };
      return { passed: false, value: { description: null, length: 0, count: 0, outside_head: outsideHead }, errors };
    }

    const texts = inHead.map(metaText);
    const description = texts[0];
    const length = codePointLength(description);
    const min = thresholds.meta_description_min_chars;
    const max = thresholds.meta_description_max_chars;
    const errors: CheckErrors = {};
    if (texts.length > 1) errors.multiple = capItems(texts);
    if (description === '') errors.empty = ['<meta name="description">'];
    else if (length < min) errors.too_short = [{ length, min }];
    else if (length > max) errors.too_long = [{ length, max }];

    const value = { description, length, count: texts.length, outside_head: outsideHead };
    return outcomeFromErrors(value, errors);
  },
});
