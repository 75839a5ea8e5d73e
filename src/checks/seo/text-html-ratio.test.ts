import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { textHtmlRatioCheck } from './text-html-ratio.ts';

const run = (charCount: number, htmlLength: number) =>
  textHtmlRatioCheck.run(makeContext({ snapshot: { htmlLength, text: { wordCount: 0, charCount, words: new Set(), emails: [] } } }));

describe('text_html_ratio', () => {
  it('passes at 10% and more, reporting the percentage to one decimal', () => {
    expect(run(1234, 10000)).toEqual({ passed: true, value: { percent: 12.3, text_chars: 1234, html_chars: 10000, min: 10 }, errors: null });
    expect(run(9996, 100000).passed).toBe(true); // 9.996% shows as 10.0%
  });

  it('fails below the minimum', () => {
    expect(run(950, 10000)).toMatchObject({ passed: false, value: { percent: 9.5 }, errors: { too_low: [{ percent: 9.5, min: 10 }] } });
  });

  it('does not apply to an empty document', () => {
    expect(run(0, 0).passed).toBeNull();
  });
});
