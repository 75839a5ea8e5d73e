import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { inlineCssCheck } from './inline-css.ts';

describe('inline_css', () => {
  it('passes at the threshold', () => {
    expect(inlineCssCheck.run(makeContext({ snapshot: { inlineStyleCount: 20 } }))).toMatchObject({ passed: true, value: { elements_with_style: 20, max: 20 } });
  });

  it('fails above the configured threshold', () => {
    const outcome = inlineCssCheck.run(makeContext({ snapshot: { inlineStyleCount: 6 }, thresholds: { max_inline_css: 5 } }));
    expect(outcome).toMatchObject({ passed: false, errors: { too_many_inline_styles: [{ elements: 6, max: 5 }] } });
  });
});
