import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { loadTimeCheck } from './load-time.ts';

describe('load_time', () => {
  it('passes at the threshold', () => {
    const outcome = loadTimeCheck.run(makeContext({ page: { totalMs: 2000 } }));
    expect(outcome).toMatchObject({ passed: true, value: { total_ms: 2000, max_ms: 2000 }, errors: null });
  });

  it('fails above the threshold', () => {
    const outcome = loadTimeCheck.run(makeContext({ page: { totalMs: 2001 } }));
    expect(outcome).toMatchObject({ passed: false, errors: { too_slow: [{ total_ms: 2001, max_ms: 2000 }] } });
  });

  it('uses the configured threshold', () => {
    expect(loadTimeCheck.run(makeContext({ page: { totalMs: 1500 }, thresholds: { max_load_time_ms: 1000 } })).passed).toBe(false);
  });
});
