import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { deprecatedHtmlTagsCheck } from './deprecated-html-tags.ts';

describe('deprecated_html_tags', () => {
  it('passes without obsolete tags; s and u are valid HTML5', () => {
    expect(deprecatedHtmlTagsCheck.run(makeContext({ snapshot: { deprecatedTags: { s: 2, u: 1 } } }))).toMatchObject({ passed: true, value: { total: 0 } });
  });

  it('fails on a single obsolete tag and lists each tag with its count', () => {
    const outcome = deprecatedHtmlTagsCheck.run(makeContext({ snapshot: { deprecatedTags: { font: 3, center: 1 } } }));
    expect(outcome).toMatchObject({
      passed: false,
      value: { total: 4, by_tag: { center: 1, font: 3 } },
      errors: { deprecated_tags: [{ tag: 'center', count: 1 }, { tag: 'font', count: 3 }] },
    });
  });
});
