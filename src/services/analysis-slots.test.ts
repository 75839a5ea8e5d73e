import { describe, expect, it } from 'vitest';
import { createAnalysisSlots, TooManyAnalysesError } from './analysis-slots.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('analysis slots', () => {
  it('refuses an account over its limit with 429 while others still run', async () => {
    const slots = createAnalysisSlots({ perAccount: 2, overall: 10, retryAfterSeconds: 5 });
    const held = gate();
    const running = [slots.run(1, () => held.opened), slots.run(1, () => held.opened)];
    await expect(slots.run(1, async () => 'x')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 5 });
    await expect(slots.run(2, async () => 'other account')).resolves.toBe('other account');
    held.open();
    await Promise.all(running);
    await expect(slots.run(1, async () => 'after')).resolves.toBe('after');
    expect(slots.inFlight()).toBe(0);
  });

  it('refuses anyone with 503 when the server is full', async () => {
    const slots = createAnalysisSlots({ perAccount: 5, overall: 2, retryAfterSeconds: 3 });
    const held = gate();
    const running = [slots.run(1, () => held.opened), slots.run(2, () => held.opened)];
    const refused = await slots.run(3, async () => 'x').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyAnalysesError);
    expect(refused).toMatchObject({ status: 503 });
    held.open();
    await Promise.all(running);
  });

  it('frees the slot when the work fails', async () => {
    const slots = createAnalysisSlots({ perAccount: 1, overall: 1, retryAfterSeconds: 1 });
    await expect(slots.run(1, async () => Promise.reject(new Error('fetch failed')))).rejects.toThrow('fetch failed');
    await expect(slots.run(1, async () => 'ok')).resolves.toBe('ok');
  });
});
