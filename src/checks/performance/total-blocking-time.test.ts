import { describe, expect, it } from 'vitest';
import { totalBlockingTimeCheck } from './total-blocking-time.ts';
import { labContext, labAudit } from '../../../test/support/lab-fixtures.ts';

const TASKS = [
  { start_ms: 1203, duration_ms: 412 },
  { start_ms: 2400, duration_ms: 90 },
];
const run = (tbt_ms: number | null, thresholds = {}, fcp_ms: number | null = 900) =>
  totalBlockingTimeCheck.run(labContext(labAudit({ metrics: { tbt_ms, fcp_ms }, long_tasks: TASKS }), { thresholds }));

describe('total_blocking_time', () => {
  it('passes up to and including 200 ms', () => {
    expect(run(0)).toEqual({ passed: true, value: { value: 0, band: 'good' }, errors: null });
    expect(run(200)).toEqual({ passed: true, value: { value: 200, band: 'good' }, errors: null });
  });

  it('fails above, listing the longest tasks', () => {
    expect(run(201)).toEqual({ passed: false, value: { value: 201, band: 'needs_improvement' }, errors: { long_tasks: TASKS } });
    expect(run(600)).toMatchObject({ value: { band: 'needs_improvement' } });
    expect(run(601)).toMatchObject({ value: { band: 'poor' } });
  });

  it('passes up to max_tbt_ms', () => {
    expect(run(400, { max_tbt_ms: 400 })).toMatchObject({ passed: true, value: { band: 'needs_improvement' } });
  });

  it('does not apply without a first contentful paint', () => {
    const reason = 'Nothing contentful was painted during the lab audit, and blocking time is counted from the first contentful paint.';
    expect(run(null, {}, null)).toEqual({ passed: null, reason });
    expect(run(0, {}, null)).toEqual({ passed: null, reason });
  });
});
