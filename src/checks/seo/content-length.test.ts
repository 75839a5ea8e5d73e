import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { contentLengthCheck } from './content-length.ts';

const run = (wordCount: number, min_words?: number) =>
  contentLengthCheck.run(
    makeContext({ snapshot: { text: { wordCount, charCount: 0, words: new Set(), emails: [] } }, thresholds: min_words === undefined ? {} : { min_words } }),
  );

describe('content_length', () => {
  it('passes at the minimum word count', () => {
    expect(run(300)).toEqual({ passed: true, value: { words: 300, min: 300 }, errors: null });
  });

  it('fails below it, using the configured minimum', () => {
    expect(run(299)).toMatchObject({ passed: false, errors: { too_short: [{ words: 299, min: 300 }] } });
    expect(run(120, 100).passed).toBe(true);
  });
});
