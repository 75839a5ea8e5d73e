import { describe, expect, it } from 'vitest';
import { bandOf } from './lab-metric.ts';
import { largestContentfulPaintCheck } from './largest-contentful-paint.ts';
import { cumulativeLayoutShiftCheck } from './cumulative-layout-shift.ts';
import { totalBlockingTimeCheck } from './total-blocking-time.ts';
import { firstContentfulPaintCheck } from './first-contentful-paint.ts';
import { pageWeightCheck } from './page-weight.ts';
import { labContext } from '../../../test/support/lab-fixtures.ts';

const LAB_CHECKS = [largestContentfulPaintCheck, cumulativeLayoutShiftCheck, totalBlockingTimeCheck, firstContentfulPaintCheck, pageWeightCheck];

describe('bandOf', () => {
  it('is good up to and including the first edge, needs improvement up to and including the second, poor above', () => {
    expect([0, 2500, 2501, 4000, 4001].map((value) => bandOf(value, [2500, 4000]))).toEqual([
      'good', 'good', 'needs_improvement', 'needs_improvement', 'poor',
    ]);
    expect([0.1, 0.10001, 0.25, 0.2501].map((value) => bandOf(value, [0.1, 0.25]))).toEqual(['good', 'needs_improvement', 'needs_improvement', 'poor']);
  });
});

describe('the lab metric checks', () => {
  it.each(LAB_CHECKS.map((check) => [check.id, check] as const))('%s does not apply without a lab audit, nor when it could not observe the page', (_id, check) => {
    expect(check.run(labContext(undefined))).toEqual({ passed: null, reason: 'No lab audit was made (lab=1 makes one).' });
    const failed = { ok: false as const, reason: 'The lab audit could not load the page: net::ERR_NAME_NOT_RESOLVED' };
    expect(check.run(labContext(failed))).toEqual({ passed: null, reason: failed.reason });
  });

  it('are performance checks with the importance the contract gives each', () => {
    expect(LAB_CHECKS.map(({ id, category, importance }) => `${id} ${category} ${importance}`)).toEqual([
      'largest_contentful_paint performance high',
      'cumulative_layout_shift performance high',
      'total_blocking_time performance medium',
      'first_contentful_paint performance medium',
      'page_weight performance low',
    ]);
  });
});
