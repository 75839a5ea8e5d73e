import { defineCheck, type CheckErrors } from '../check.ts';
import { isAbsoluteHttpUrl } from '../../parse/url.ts';
import { metasNamed, metaText } from './meta-tags.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Nullable, Obj, Str } from '../value-schema.ts';

const REQUIRED = ['og:title', 'og:description', 'og:image', 'twitter:card'] as const;

const OpenGraphValue = Obj({ og_title: Nullable(Str()), og_description: Nullable(Str()), og_image: Nullable(Str()), twitter_card: Nullable(Str()) });

export const openGraphCheck = defineCheck<typeof OpenGraphValue>({
  id: 'open_graph',
  category: 'seo',
  importance: 'low',
  title: 'The page has social sharing tags',
  failureTitle: 'Social sharing tags are missing',
  description:
    'When the page is shared on social networks or in chat apps, Open Graph and Twitter Card tags supply the title, summary and picture of the preview; without them the preview is bare or wrong.',
  howToFix:
    'Add to the `<head>`: `<meta property="og:title">`, `og:description`, `og:image` with an absolute https URL of an image (ideally 1200×630), and `<meta name="twitter:card" content="summary_large_image">`.',
  labels: {
    og_title: 'og:title', og_description: 'og:description', og_image: 'og:image', twitter_card: 'twitter:card', missing: 'Missing tags',
    not_absolute: 'og:image is not an absolute URL',
  },
  value: OpenGraphValue,
  run({ snapshot }) {
    // Both attributes are common in the wild (property= per the Open Graph protocol, name= for Twitter).
    const contentOf = (key: string) => metasNamed(snapshot.metas, [key], true).map(metaText).find((text) => text !== '') ?? null;
    const found = Object.fromEntries(REQUIRED.map((key) => [key, contentOf(key)])) as Record<(typeof REQUIRED)[number], string | null>;

    const errors: CheckErrors = {};
    const missing = REQUIRED.filter((key) => found[key] === null);
    if (missing.length > 0) errors.missing = missing;
    const image = found['og:image'];
    if (image !== null && !isAbsoluteHttpUrl(image)) errors.not_absolute = [image];

    const value = {
      og_title: found['og:title'],
      og_description: found['og:description'],
      og_image: image,
      twitter_card: found['twitter:card'],
    };
    return outcomeFromErrors(value, errors);
  },
});
