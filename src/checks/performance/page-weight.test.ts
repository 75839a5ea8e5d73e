import { describe, expect, it } from 'vitest';
import { pageWeightCheck } from './page-weight.ts';
import { labContext, makeLabAudit } from '../../../test/support/lab-audit.ts';

const KIB = 1024;
const run = (byType: NonNullable<Parameters<typeof makeLabAudit>[0]>['byType'], thresholds = {}) =>
  pageWeightCheck.run(labContext(makeLabAudit({ byType }), { thresholds }));

describe('page_weight', () => {
  it('passes up to and including 1,600 KiB', () => {
    expect(run({ document: { requests: 1, bytes: 600 * KIB }, image: { requests: 4, bytes: 1000 * KIB } })).toEqual({
      passed: true,
      value: { value: 1_638_400, band: 'good' },
      errors: null,
    });
  });

  it('fails above, listing the types with bytes, heaviest first', () => {
    const outcome = run({ document: { requests: 1, bytes: 20 * KIB }, script: { requests: 9, bytes: 900 * KIB }, image: { requests: 12, bytes: 680 * KIB + 1 } });
    expect(outcome).toEqual({
      passed: false,
      value: { value: 1_638_401, band: 'needs_improvement' },
      errors: {
        by_type: [
          { type: 'script', requests: 9, bytes: 900 * KIB },
          { type: 'image', requests: 12, bytes: 680 * KIB + 1 },
          { type: 'document', requests: 1, bytes: 20 * KIB },
        ],
      },
    });
  });

  it('bands at 4,000 KiB', () => {
    expect(run({ image: { requests: 1, bytes: 4000 * KIB } })).toMatchObject({ value: { band: 'needs_improvement' } });
    expect(run({ image: { requests: 1, bytes: 4000 * KIB + 1 } })).toMatchObject({ value: { band: 'poor' } });
  });

  it('passes up to max_page_weight_bytes', () => {
    expect(run({ image: { requests: 1, bytes: 3000 * KIB } }, { max_page_weight_bytes: 3000 * KIB })).toMatchObject({ passed: true, value: { band: 'needs_improvement' } });
    expect(run({ document: { requests: 1, bytes: 101 } }, { max_page_weight_bytes: 100 })).toEqual({
      passed: false,
      value: { value: 101, band: 'good' },
      errors: { by_type: [{ type: 'document', requests: 1, bytes: 101 }] },
    });
  });
});
