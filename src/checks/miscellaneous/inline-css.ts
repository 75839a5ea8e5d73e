import { defineCheck } from '../check.ts';
import { Int, Num, Obj } from '../value-schema.ts';

const InlineCssValue = Obj({ elements_with_style: Int(), max: Num() });

export const inlineCssCheck = defineCheck<typeof InlineCssValue>({
  id: 'inline_css',
  category: 'miscellaneous',
  importance: 'low',
  title: 'Little inline CSS',
  failureTitle: 'Many elements carry inline styles',
  description:
    'Styles in `style` attributes are repeated in every page, cannot be cached, and are hard to maintain; a stylesheet keeps the HTML lighter.',
  howToFix: 'Move the `style` attributes into CSS classes in a stylesheet.',
  labels: {
    elements_with_style: 'Elements with a style attribute', max: 'Most allowed', too_many_inline_styles: 'Too many inline styles',
    elements: 'Elements with a style attribute',
  },
  value: InlineCssValue,
  run({ snapshot, thresholds }) {
    const count = snapshot.inlineStyleCount;
    const value = { elements_with_style: count, max: thresholds.max_inline_css };
    if (count <= thresholds.max_inline_css) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { too_many_inline_styles: [{ elements: count, max: thresholds.max_inline_css }] } };
  },
});
