import { describe, expect, it } from 'vitest';
import { runPool } from './run-pool.ts';

describe('runPool', () => {
  it('keeps input order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const results = await runPool([5, 1, 4, 2, 3, 0], 2, async (value, index) => {
      running += 1;
      most = Math.max(most, running);
      // Later items finish first, so order comes from the pool, not from finishing times.
      for (let tick = 0; tick < value; tick += 1) await Promise.resolve();
      running -= 1;
      return `${index}:${value}`;
    });
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
    expect(most).toBe(2);
  });

  it('handles an empty list and a limit above the list length', async () => {
    expect(await runPool([], 4, async () => 1)).toEqual([]);
    expect(await runPool(['a'], 16, async (value) => value.toUpperCase())).toEqual(['A']);
  });
});
