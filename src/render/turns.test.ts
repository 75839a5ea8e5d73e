import { describe, expect, it } from 'vitest';
import { RenderFailure } from './render-page.ts';
import { createTurns } from './turns.ts';

/** A piece of work that ends when the test says. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { finish, work: async () => done };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('turns', () => {
  it('runs at most `size` at once, the others in the order asked', async () => {
    const turns = createTurns(2, 'cancelled');
    const started: number[] = [];
    const works = [0, 1, 2, 3].map(() => held());
    const results = works.map((work, i) => turns.take(() => (started.push(i), work.work()).then(() => i)));
    await settle();
    expect(started).toEqual([0, 1]);
    works[1].finish();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    works[0].finish();
    works[2].finish();
    works[3].finish();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
  });

  it('frees the turn of work that failed', async () => {
    const turns = createTurns(1, 'cancelled');
    await expect(turns.take(async () => Promise.reject(new Error('broke')))).rejects.toThrow('broke');
    await expect(turns.take(async () => 'next')).resolves.toBe('next');
  });

  it('lets a waiter leave when its signal aborts, and never runs its work', async () => {
    const turns = createTurns(1, 'The lab audit was cancelled.');
    const first = held();
    const running = turns.take(first.work);
    const controller = new AbortController();
    let ran = false;
    const waiting = turns.take(async () => void (ran = true), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow(new RenderFailure('The lab audit was cancelled.'));
    first.finish();
    await running;
    await settle();
    expect(ran).toBe(false);
    await expect(turns.take(async () => 'free', AbortSignal.abort())).rejects.toThrow('cancelled');
  });
});
