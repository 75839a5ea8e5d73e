import { defineCheck } from '../check.ts';
import { Int, Num, Obj } from '../value-schema.ts';

const DomSizeValue = Obj({ elements: Int(), max_depth: Int(), max_elements: Num() });

export const domSizeCheck = defineCheck<typeof DomSizeValue>({
  id: 'dom_size',
  category: 'performance',
  importance: 'low',
  title: 'The DOM is small',
  failureTitle: 'The DOM is too large',
  description:
    'A page with very many elements takes longer to style, lay out and update, and uses more memory, which makes it slower to show and to react to input.',
  howToFix:
    'Remove wrapper elements that only exist for styling, paginate or virtualise long lists, and load rarely used parts (menus, comments) on demand.',
  labels: {
    elements: 'Elements', max_depth: 'Deepest nesting', max_elements: 'Most elements allowed', too_many_elements: 'Too many elements',
    max: 'Most elements allowed',
  },
  value: DomSizeValue,
  run({ snapshot, thresholds }) {
    const value = { elements: snapshot.elementCount, max_depth: snapshot.maxDepth, max_elements: thresholds.max_dom_elements };
    if (snapshot.elementCount <= thresholds.max_dom_elements) return { passed: true, value, errors: null };
    return {
      passed: false,
      value,
      errors: { too_many_elements: [{ elements: snapshot.elementCount, max: thresholds.max_dom_elements }] },
    };
  },
});
