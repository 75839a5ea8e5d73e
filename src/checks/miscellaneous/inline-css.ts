import { defineCheck } from '../check.ts';

export const inlineCssCheck = defineCheck({
  id: 'inline_css',
  category: 'miscellaneous',
  importance: 'low',
  title: 'Little inline CSS',
  failureTitle: 'Many elements carry inline styles',
  description:
    'Styles in `style` attributes are repeated in every page, cannot be cached, and are hard to maintain; a stylesheet keeps the HTML lighter.',
  howToFix: 'Move the `style` attributes into CSS classes in a stylesheet.',
  run({ snapshot, thresholds }) {
    const count = snapshot.inlineStyleCount;
    const value = { elements_with_style: count, max: thresholds.max_inline_css };
    if (count <= thresholds.max_inline_css) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { too_many_inline_styles: [{ elements: count, max: thresholds.max_inline_css }] } };
  },
});
