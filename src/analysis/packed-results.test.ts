import { describe, expect, it } from 'vitest';
import { packResults, unpackResults } from './packed-results.ts';
import type { CheckResult } from './types.ts';

const results: Record<string, CheckResult> = Object.fromEntries(
  Array.from({ length: 50 }, (_, i) => [`check_${i}`, { passed: i % 3 !== 0, importance: 'medium', value: { count: i, urls: [`https://example.com/${i}`] } } as unknown as CheckResult]),
);

describe('packed results', () => {
  it('reads back what it packed, in a fraction of the JSON', () => {
    const packed = packResults(results);
    expect(packed.startsWith('z:')).toBe(true);
    expect(unpackResults(packed)).toEqual(results);
    expect(packed.length).toBeLessThan(JSON.stringify(results).length / 2);
  });

  it('reads the plain JSON of runs stored before packing', () => {
    expect(unpackResults(JSON.stringify(results))).toEqual(results);
  });
});
