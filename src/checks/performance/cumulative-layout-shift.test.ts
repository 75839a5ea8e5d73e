import { describe, expect, it } from 'vitest';
import { cumulativeLayoutShiftCheck } from './cumulative-layout-shift.ts';
import { labContext, labAudit } from '../../../test/support/lab-fixtures.ts';

const SHIFTS = [
  { value: 0.08, selector: 'main > p:nth-of-type(2)' },
  { value: 0.05, selector: null },
];
const run = (cls: number, thresholds = {}) =>
  cumulativeLayoutShiftCheck.run(labContext(labAudit({ metrics: { cls }, layout_shifts: SHIFTS }), { thresholds }));

describe('cumulative_layout_shift', () => {
  it('passes when nothing shifted, and up to and including 0.1', () => {
    expect(run(0)).toEqual({ passed: true, value: { value: 0, band: 'good' }, errors: null });
    expect(run(0.1)).toEqual({ passed: true, value: { value: 0.1, band: 'good' }, errors: null });
  });

  it('fails above 0.1, listing the largest shifts as the lab audit has them', () => {
    expect(run(0.101)).toEqual({ passed: false, value: { value: 0.101, band: 'needs_improvement' }, errors: { layout_shifts: SHIFTS } });
    expect(run(0.25)).toMatchObject({ value: { band: 'needs_improvement' } });
    expect(run(0.251)).toMatchObject({ value: { band: 'poor' } });
  });

  it('passes up to max_cls', () => {
    expect(run(0.2, { max_cls: 0.2 })).toMatchObject({ passed: true, value: { band: 'needs_improvement' } });
    expect(run(0.06, { max_cls: 0.05 })).toMatchObject({ passed: false, value: { band: 'good' } });
  });
});
