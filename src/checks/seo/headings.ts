import { capItems, defineCheck, type CheckErrors } from '../check.ts';
import { outcomeFromErrors } from './outcome.ts';
import { locate } from '../locate.ts';
import { Int, List, Obj, Str } from '../value-schema.ts';

const HeadingsValue = Obj({
  h1: List(Str(), 'texts of the h1 headings'),
  counts: Obj({ h1: Int(), h2: Int(), h3: Int(), h4: Int(), h5: Int(), h6: Int() }),
  empty: Int({ description: 'headings without text' }),
});

export const headingsCheck = defineCheck<typeof HeadingsValue>({
  id: 'headings',
  category: 'seo',
  importance: 'high',
  title: 'The page has one main heading and no empty headings',
  failureTitle: 'The main heading is missing or repeated, or headings are empty',
  description:
    'The `<h1>` tells readers and search engines what the page is about; one clear h1 and meaningful headings below it make the structure of the content plain.',
  howToFix:
    'Give the page exactly one `<h1>` with its main topic, use h2 to h6 for sections, and remove headings that have no text.',
  labels: {
    h1: 'h1 headings', counts: 'Headings by level', empty: 'Empty headings', missing: 'No h1 heading', multiple: 'More than one h1 heading',
    level: 'Level', position: 'Place among the headings',
  },
  value: HeadingsValue,
  run({ page, snapshot }) {
    const { headings } = snapshot;
    const counts = { h1: 0, h2: 0, h3: 0, h4: 0, h5: 0, h6: 0 };
    for (const heading of headings) counts[`h${heading.level}`]++;
    const h1 = headings.filter((heading) => heading.level === 1).map((heading) => heading.text);
    // position: the heading's place among all headings (1-based), to find it in the page.
    const empty = headings.flatMap((heading, index) =>
      heading.text === '' ? [{ level: `h${heading.level}`, position: index + 1, ...locate(page, heading) }] : [],
    );

    const errors: CheckErrors = {};
    if (h1.length === 0) errors.missing = ['<h1>'];
    if (h1.length > 1) errors.multiple = capItems(h1);
    if (empty.length > 0) errors.empty = capItems(empty);

    const value = { h1: capItems(h1), counts, empty: empty.length };
    return outcomeFromErrors(value, errors);
  },
});
