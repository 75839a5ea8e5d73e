// Turns at something that only `size` may do at once (lab audits: PAGEGRADE_LAB_CONCURRENCY), taken
// in the order asked. A wait has no deadline of its own: each turn is bounded by what it runs (a lab
// audit by its context's deadline), and a caller that stops waiting says so with its signal.
import { RenderFailure } from './render-page.ts';

export interface Turns {
  /** Runs `work` once a turn is free; rejects with a RenderFailure(`cancelled`) when `signal` aborts first. */
  take<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export function createTurns(size: number, cancelled: string): Turns {
  let running = 0;
  const waiting: (() => void)[] = [];

  function next(): void {
    running -= 1;
    waiting.shift()?.();
  }

  return {
    take(work, signal) {
      return new Promise((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', leave);
          running += 1;
          work().then(resolve, reject).finally(next);
        };
        function leave(): void {
          const index = waiting.indexOf(start);
          if (index !== -1) waiting.splice(index, 1);
          reject(new RenderFailure(cancelled));
        }
        if (signal?.aborted) return leave();
        if (running < size) return start();
        signal?.addEventListener('abort', leave, { once: true });
        waiting.push(start);
      });
    },
  };
}
