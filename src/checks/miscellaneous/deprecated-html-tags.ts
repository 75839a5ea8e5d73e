import { defineCheck } from '../check.ts';
import { Dict, Int, Obj } from '../value-schema.ts';

/** Obsolete in HTML5. `s` and `u` are valid HTML5 again, so they are not here (phpRank still flags them). */
const DEPRECATED_TAGS = [
  'acronym', 'applet', 'basefont', 'big', 'blink', 'center', 'dir', 'font', 'frame', 'frameset', 'isindex',
  'marquee', 'noframes', 'strike', 'tt',
] as const;

const DeprecatedHtmlTagsValue = Obj({ total: Int(), by_tag: Dict(Int(), 'count by deprecated tag name') });

export const deprecatedHtmlTagsCheck = defineCheck<typeof DeprecatedHtmlTagsValue>({
  id: 'deprecated_html_tags',
  category: 'miscellaneous',
  importance: 'low',
  title: 'No obsolete HTML tags',
  failureTitle: 'The page uses obsolete HTML tags',
  description:
    'Tags like `<font>`, `<center>` and `<marquee>` are obsolete in HTML5: browsers may drop support, and they mix presentation into the markup.',
  howToFix: 'Replace them with semantic elements and CSS (e.g. `<font>` → CSS font rules, `<center>` → `text-align: center`, `<tt>` → `<code>`).',
  labels: {
    total: 'Deprecated elements', by_tag: 'By tag', deprecated_tags: 'Deprecated tags', tag: 'Tag', count: 'Times used',
  },
  value: DeprecatedHtmlTagsValue,
  run({ snapshot }) {
    const found = DEPRECATED_TAGS.flatMap((tag) => {
      const count = snapshot.deprecatedTags[tag] ?? 0;
      return count > 0 ? [{ tag, count }] : [];
    });
    const value = {
      total: found.reduce((sum, { count }) => sum + count, 0),
      by_tag: Object.fromEntries(found.map(({ tag, count }) => [tag, count])),
    };
    if (found.length === 0) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { deprecated_tags: found } };
  },
});
