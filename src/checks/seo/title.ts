import { capItems, defineCheck, type CheckErrors } from '../check.ts';
import { codePointLength, collapseWhitespace } from './text-measure.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Nullable, Obj, Str } from '../value-schema.ts';

const TitleValue = Obj({ title: Nullable(Str()), length: Int(), count: Int(), outside_head: Int() });

export const titleCheck = defineCheck<typeof TitleValue>({
  id: 'title',
  category: 'seo',
  importance: 'high',
  title: 'The page has a good title',
  failureTitle: 'The page title is missing, repeated or of the wrong length',
  description:
    'The title is the headline of the page in search results and browser tabs. Search engines cut long titles and may rewrite missing, very short or duplicated ones.',
  howToFix:
    'Put exactly one `<title>` in the `<head>` that describes this page in about 10 to 60 characters, most important words first.',
  differsFromLighthouse:
    'The title is read only from the head as the HTML parser ends it: a `<title>` that comes after body content has started counts as outside the head and does not count, because search engines read the head. Lighthouse reads `document.title`, the first `<title>` anywhere in the document, and only asks that it is not empty.',
  labels: {
    title: 'Title', length: 'Length (characters)', count: 'Title elements', outside_head: 'Title elements outside the head',
    missing: 'No title', multiple: 'More than one title', empty: 'Empty title', too_short: 'Too short', too_long: 'Too long',
    min: 'Fewest characters wanted', max: 'Most characters allowed',
  },
  value: TitleValue,
  run({ snapshot, thresholds }) {
    const titles = snapshot.titles.map(collapseWhitespace);
    const outsideHead = snapshot.titlesOutsideHead;
    if (titles.length === 0) {
      const errors: CheckErrors = outsideHead > 0 ? { outside_head: [{ count: outsideHead }] } : { missing: ['<title>'] };
      return { passed: false, value: { title: null, length: 0, count: 0, outside_head: outsideHead }, errors };
    }

    // Browsers and search engines use the first title.
    const title = titles[0];
    const length = codePointLength(title);
    const min = thresholds.title_min_chars;
    const max = thresholds.title_max_chars;
    const errors: CheckErrors = {};
    if (titles.length > 1) errors.multiple = capItems(titles);
    if (title === '') errors.empty = ['<title>'];
    else if (length < min) errors.too_short = [{ length, min }];
    else if (length > max) errors.too_long = [{ length, max }];

    const value = { title, length, count: titles.length, outside_head: outsideHead };
    return outcomeFromErrors(value, errors);
  },
});
